package dev.agentarena.samples.options;

/** The team's own converter, under evaluation: it rounds the factor (1.609344) to 1.6, which adds up on long runs. */
final class MilesToKm {

    private MilesToKm() {
    }

    static double convert(double miles) {
        return miles * 1.6;
    }
}
