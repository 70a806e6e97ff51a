package dev.agentarena.junit.engine.models.simulated;

import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A string that a regular expression finds, for the simulated models' right answers to {@code regex} cases.
 *
 * <p>Covers what reference patterns usually hold: literals, escapes, {@code \d \w \s}, classes, groups with
 * alternation (the first branch), and quantifiers (the minimum, at least once). Every example is checked against the
 * pattern; when the generator cannot satisfy it (backreferences, lookarounds), there is no example.
 */
final class RegexExample {

    private static final Pattern FLAGS = Pattern.compile("\\?[a-zA-Z-]+[):]");

    private final String pattern;
    private int position;

    private RegexExample(String pattern) {
        this.pattern = pattern;
    }

    static Optional<String> of(String regex) {
        try {
            Pattern compiled = Pattern.compile(regex);
            String example = new RegexExample(regex).sequence();
            return compiled.matcher(example).find() ? Optional.of(example) : Optional.empty();
        }
        catch (PatternSyntaxException | IllegalStateException | StringIndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /** A sequence up to the end, a {@code |} or a {@code )}; alternatives after the first are skipped. */
    private String sequence() {
        StringBuilder out = new StringBuilder();
        while (position < pattern.length()) {
            char c = pattern.charAt(position);
            if (c == ')') {
                return out.toString();
            }
            if (c == '|') {
                skipAlternatives();
                return out.toString();
            }
            String atom = atom();
            out.append(repeat(atom, quantifier()));
        }
        return out.toString();
    }

    private void skipAlternatives() {
        int depth = 0;
        while (position < pattern.length()) {
            char c = pattern.charAt(position);
            if (c == '\\') {
                position += 2;
                continue;
            }
            if (c == '[') {
                skipClass();
                continue;
            }
            if (c == '(') {
                depth++;
            }
            else if (c == ')') {
                if (depth == 0) {
                    return;
                }
                depth--;
            }
            position++;
        }
    }

    private String atom() {
        char c = pattern.charAt(position++);
        switch (c) {
            case '^':
            case '$':
                return "";
            case '.':
                return "x";
            case '[':
                position--;
                return String.valueOf(characterClass());
            case '(':
                return group();
            case '\\':
                return escape();
            default:
                return String.valueOf(c);
        }
    }

    private String group() {
        if (pattern.startsWith("?", position)) {
            if (pattern.startsWith("?:", position) || pattern.startsWith("?>", position)) {
                position += 2;
            }
            else if (pattern.startsWith("?<", position) && !pattern.startsWith("?<=", position)
                    && !pattern.startsWith("?<!", position)) {
                position = pattern.indexOf('>', position) + 1;
            }
            else if (FLAGS.matcher(pattern).region(position, pattern.length()).lookingAt()) {
                // inline flags: (?i) changes no example; (?i:...) is a group
                int end = position + 1;
                while (Character.isLetter(pattern.charAt(end)) || pattern.charAt(end) == '-') {
                    end++;
                }
                position = end + 1;
                if (pattern.charAt(end) == ')') {
                    return "";
                }
            }
            else {
                throw new IllegalStateException("lookaround");
            }
        }
        String inner = sequence();
        if (position >= pattern.length() || pattern.charAt(position) != ')') {
            throw new IllegalStateException("unbalanced group");
        }
        position++;
        return inner;
    }

    private String escape() {
        char c = pattern.charAt(position++);
        switch (c) {
            case 'd':
                return "7";
            case 'w':
                return "a";
            case 's':
                return " ";
            case 'D':
            case 'W':
            case 'S':
                return c == 'S' ? "x" : "-";
            case 'b':
            case 'B':
            case 'A':
            case 'z':
            case 'Z':
                return "";
            case 'n':
                return "\n";
            case 't':
                return "\t";
            default:
                if (Character.isLetterOrDigit(c)) {
                    throw new IllegalStateException("unsupported escape \\" + c);
                }
                return String.valueOf(c);
        }
    }

    /** The first character a class admits; for a negated class, a common one it does not exclude. */
    private char characterClass() {
        int start = position;
        skipClass();
        String body = pattern.substring(start, position);
        Pattern cls = Pattern.compile(body);
        String candidates = body.startsWith("[^") ? "xa0 -_.Z9" : body.substring(1, body.length() - 1)
                .replace("\\d", "0").replace("\\w", "a").replace("\\s", " ") + "a0xZ -";
        for (char candidate : candidates.toCharArray()) {
            if (candidate != '\\' && cls.matcher(String.valueOf(candidate)).matches()) {
                return candidate;
            }
        }
        throw new IllegalStateException("no member found for " + body);
    }

    private void skipClass() {
        position++;
        if (pattern.startsWith("^", position)) {
            position++;
        }
        if (pattern.startsWith("]", position)) {
            position++;
        }
        while (pattern.charAt(position) != ']') {
            position += pattern.charAt(position) == '\\' ? 2 : 1;
        }
        position++;
    }

    /** How many times to repeat the atom just read. */
    private int quantifier() {
        if (position >= pattern.length()) {
            return 1;
        }
        char c = pattern.charAt(position);
        int count;
        if (c == '*' || c == '+' || c == '?') {
            position++;
            count = c == '*' ? 0 : 1;
        }
        else if (c == '{') {
            int end = pattern.indexOf('}', position);
            String[] bounds = pattern.substring(position + 1, end).split(",", -1);
            position = end + 1;
            count = Integer.parseInt(bounds[0].trim());
        }
        else {
            return 1;
        }
        if (position < pattern.length() && (pattern.charAt(position) == '?' || pattern.charAt(position) == '+')) {
            position++;
        }
        return count;
    }

    private static String repeat(String atom, int count) {
        return atom.repeat(Math.min(count, 64));
    }
}
