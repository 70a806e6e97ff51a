package dev.agentarena.junit.engine.reporting.leaderboard;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The accuracy (more is better) versus cost (less is better) frontier. */
final class Pareto {

    private Pareto() {
    }

    /** A model with its accuracy and cost. */
    record Point(String name, double accuracy, double cost) {
    }

    /**
     * The points no other point dominates (at least as accurate and at most as costly, strictly better in one), cheapest
     * first. Points missing either value are left out.
     */
    static List<Point> frontier(List<Point> points) {
        List<Point> frontier = new ArrayList<>();
        for (Point p : points) {
            if (Double.isNaN(p.accuracy()) || Double.isNaN(p.cost())) {
                continue;
            }
            boolean dominated = false;
            for (Point q : points) {
                if (q != p && !Double.isNaN(q.accuracy()) && !Double.isNaN(q.cost())
                        && q.accuracy() >= p.accuracy() && q.cost() <= p.cost()
                        && (q.accuracy() > p.accuracy() || q.cost() < p.cost())) {
                    dominated = true;
                    break;
                }
            }
            if (!dominated) {
                frontier.add(p);
            }
        }
        frontier.sort(Comparator.comparingDouble(Point::cost).thenComparing(Point::accuracy)
                .thenComparing(Point::name));
        return frontier;
    }
}
