// Differential oracle: runs cases through Java's java.util.regex and prints the results as JSON
// lines. A single-file program, run by source launch under any JDK from 17 on:
//
//     java --add-opens java.base/java.util.regex=ALL-UNNAMED tests/oracle/JavaOracle.java
//
// (the option only matters before Java 20; see "names" below). Only the JDK itself: the JSON
// reader and writer are in this file.
//
// Input (stdin, UTF-8): one JSON object a line, {"pattern", "text", "flags" (optional),
// "replace" (optional)}. "flags" is a string of letters, each a Pattern flag given to
// Pattern.compile: i CASE_INSENSITIVE, m MULTILINE, s DOTALL, x COMMENTS, u UNICODE_CASE,
// U UNICODE_CHARACTER_CLASS, d UNIX_LINES, c CANON_EQ. Strings may hold any UTF-16 text,
// lone surrogates included (written as \\uD800 escapes).
//
// Output (stdout, UTF-8): one line for each case, in order:
//
// - {"error": getDescription(), "index": getIndex(), "message": getMessage()} when
//   Pattern.compile throws PatternSyntaxException (getMessage() holds the pattern and a caret
//   line, joined with the platform's line separator);
// - {"error_runtime": "StackOverflowError"} when compiling or matching overflows the stack
//   (the JDK's default thread stack: each case runs on a thread of default size), and
//   {"error_runtime": "<class>: <message>"} for any other exception or error they throw;
// - {"timeout": true} when the case reads the text more than CHAR_BUDGET times (the text is
//   given to the matcher as a CharSequence that counts its charAt calls: catastrophic
//   backtracking stops there, at the same point on every run);
// - else {"names": [...], "matches": [[start, end, g1s, g1e, ...], ...], "replaced": ...}:
//   - "names": the group names by index, "" for index 0 and for an unnamed group. From
//     Pattern.namedGroups() on Java 20 and later; before 20 that method is package-private,
//     and the oracle calls the same method by reflection, which needs the JVM option
//     `--add-opens java.base/java.util.regex=ALL-UNNAMED` (rxw_testkit::java_oracle_answers
//     passes it to every JDK). Without it, before Java 20, "names" is null and "groups" gives
//     Matcher.groupCount(): the oracle does not re-parse the pattern to guess them.
//   - "matches": every match of Matcher.find() in a loop from a fresh matcher (after an empty
//     match the next search starts one char later, Java's own rule); offsets are UTF-16 code
//     unit indexes, -1 for a group that did not take part.
//   - "replaced" (only when "replace" is given): Matcher.replaceAll(replace) on a fresh
//     matcher; or "replace_error": "<exception class>: <message>" when it throws
//     ("IndexOutOfBoundsException: No group 3", "IllegalArgumentException: Illegal group
//     reference", ...).
//
// Each answer is flushed as it is written, so a caller may keep the oracle running and ask one
// case at a time; a blank line is skipped and gets no answer. A line that is not such an
// object, or an unknown flag letter, stops the oracle with status 2. A case that runs past
// WALL_SECONDS without reading the text (which the budget cannot stop) is answered
// {"timeout": true, "wall_clock": true} and the oracle exits with status 3: a thread stuck in
// a match cannot be stopped, only abandoned.
//
// Run by rxw_testkit::java_oracle_answers (one JVM for a whole batch of cases) and by
// crates/rxw-engine/tests/data/record_java_cases.py.

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class JavaOracle {
    /** charAt calls a case may make (matching and replacing together) before it is a timeout. */
    static final long CHAR_BUDGET = 50_000_000L;
    /** Wall-clock seconds a case may run, for a match that loops without reading the text. */
    static final long WALL_SECONDS = 60;

    public static void main(String[] args) throws IOException, InterruptedException {
        CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, utf8), 1 << 16);
        Writer out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "JavaOracle-case");
            t.setDaemon(true);
            return t;
        });
        int n = 0;
        while (true) {
            String line;
            try {
                line = in.readLine();
            } catch (java.nio.charset.CharacterCodingException | java.io.UncheckedIOException e) {
                fail(n + 1, "input is not UTF-8: " + e);
                return;
            }
            if (line == null) {
                break;
            }
            n++;
            if (line.isBlank()) {
                continue;
            }
            Case c;
            try {
                c = Case.of(new Json(line).document());
            } catch (IllegalArgumentException e) {
                fail(n, e.getMessage());
                return;
            }
            Future<Map<String, Object>> answer = worker.submit(c::run);
            Map<String, Object> result;
            try {
                result = answer.get(WALL_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                Map<String, Object> timeout = new LinkedHashMap<>();
                timeout.put("timeout", true);
                timeout.put("wall_clock", true);
                out.write(Json.write(timeout));
                out.write('\n');
                out.flush();
                System.err.println("JavaOracle: line " + n + " ran past " + WALL_SECONDS
                        + " s without reading the text; stopping");
                System.exit(3);
                return;
            } catch (ExecutionException e) {
                throw new IllegalStateException("a case threw outside its guard", e.getCause());
            }
            out.write(Json.write(result));
            out.write('\n');
            out.flush();
        }
        out.flush();
        worker.shutdownNow();
    }

    static void fail(int line, String why) {
        System.err.println("JavaOracle: line " + line + ": " + why);
        System.exit(2);
    }

    /** One input line. */
    static final class Case {
        final String pattern;
        final String text;
        final String replace;
        final int flags;

        Case(String pattern, String text, String replace, int flags) {
            this.pattern = pattern;
            this.text = text;
            this.replace = replace;
            this.flags = flags;
        }

        static Case of(Object doc) {
            if (!(doc instanceof Map)) {
                throw new IllegalArgumentException("want a JSON object");
            }
            Map<?, ?> m = (Map<?, ?>) doc;
            Object pattern = m.get("pattern");
            Object text = m.get("text");
            Object replace = m.get("replace");
            Object flags = m.get("flags");
            if (!(pattern instanceof String) || !(text instanceof String)) {
                throw new IllegalArgumentException("want {\"pattern\", \"text\"} strings");
            }
            if (replace != null && !(replace instanceof String)) {
                throw new IllegalArgumentException("\"replace\" is not a string");
            }
            if (flags != null && !(flags instanceof String)) {
                throw new IllegalArgumentException("\"flags\" is not a string");
            }
            return new Case((String) pattern, (String) text, (String) replace,
                    flags == null ? 0 : flagBits((String) flags));
        }

        static int flagBits(String letters) {
            int bits = 0;
            for (int i = 0; i < letters.length(); i++) {
                switch (letters.charAt(i)) {
                    case 'i': bits |= Pattern.CASE_INSENSITIVE; break;
                    case 'm': bits |= Pattern.MULTILINE; break;
                    case 's': bits |= Pattern.DOTALL; break;
                    case 'x': bits |= Pattern.COMMENTS; break;
                    case 'u': bits |= Pattern.UNICODE_CASE; break;
                    case 'U': bits |= Pattern.UNICODE_CHARACTER_CLASS; break;
                    case 'd': bits |= Pattern.UNIX_LINES; break;
                    case 'c': bits |= Pattern.CANON_EQ; break;
                    default:
                        throw new IllegalArgumentException(
                                "unknown flag letter '" + letters.charAt(i) + "' (want imsxuUdc)");
                }
            }
            return bits;
        }

        Map<String, Object> run() {
            Map<String, Object> out = new LinkedHashMap<>();
            Pattern p;
            try {
                p = Pattern.compile(pattern, flags);
            } catch (PatternSyntaxException e) {
                out.put("error", e.getDescription());
                out.put("index", e.getIndex());
                out.put("message", e.getMessage());
                return out;
            } catch (StackOverflowError e) {
                out.put("error_runtime", "StackOverflowError");
                return out;
            } catch (RuntimeException | Error e) {
                out.put("error_runtime", e.getClass().getName() + ": " + e.getMessage());
                return out;
            }
            Budgeted input = new Budgeted(text);
            List<Object> matches = new ArrayList<>();
            try {
                Matcher m = p.matcher(input);
                int groups = m.groupCount();
                List<Object> names = names(p, groups);
                if (names != null) {
                    out.put("names", names);
                } else {
                    out.put("names", null);
                    out.put("groups", groups);
                }
                while (m.find()) {
                    List<Object> spans = new ArrayList<>(2 * groups + 2);
                    for (int g = 0; g <= groups; g++) {
                        spans.add(m.start(g));
                        spans.add(m.end(g));
                    }
                    matches.add(spans);
                }
                out.put("matches", matches);
                if (replace != null) {
                    try {
                        out.put("replaced", p.matcher(input).replaceAll(replace));
                    } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                        out.put("replace_error", e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }
                return out;
            } catch (Budgeted.Spent e) {
                out.clear();
                out.put("timeout", true);
                return out;
            } catch (StackOverflowError e) {
                out.clear();
                out.put("error_runtime", "StackOverflowError");
                return out;
            } catch (RuntimeException | Error e) {
                out.clear();
                out.put("error_runtime", e.getClass().getName() + ": " + e.getMessage());
                return out;
            }
        }
    }

    /**
     * The group names by index, from the engine's own map: Pattern.namedGroups(), public from
     * Java 20, package-private before (reached by reflection when java.util.regex is opened to
     * this program). Null when it cannot be read.
     */
    @SuppressWarnings("unchecked")
    static List<Object> names(Pattern p, int groups) {
        Map<String, Integer> map;
        try {
            Method method;
            try {
                method = Pattern.class.getMethod("namedGroups");
            } catch (NoSuchMethodException e) {
                method = Pattern.class.getDeclaredMethod("namedGroups");
                method.setAccessible(true);
            }
            map = (Map<String, Integer>) method.invoke(p);
        } catch (NoSuchMethodException | IllegalAccessException | RuntimeException e) {
            return null;
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("Pattern.namedGroups() threw", e.getCause());
        }
        List<Object> names = new ArrayList<>(groups + 1);
        for (int g = 0; g <= groups; g++) {
            names.add("");
        }
        if (map != null) {
            for (Map.Entry<String, Integer> e : map.entrySet()) {
                names.set(e.getValue(), e.getKey());
            }
        }
        return names;
    }

    /** The text, counting the matcher's reads: past CHAR_BUDGET a read throws {@link Spent}. */
    static final class Budgeted implements CharSequence {
        static final class Spent extends RuntimeException {
            Spent() {
                super("the case read the text more than " + CHAR_BUDGET + " times", null, false, false);
            }
        }

        final String s;
        long left = CHAR_BUDGET;

        Budgeted(String s) {
            this.s = s;
        }

        @Override
        public char charAt(int i) {
            if (--left < 0) {
                throw new Spent();
            }
            return s.charAt(i);
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return s.substring(start, end);
        }

        @Override
        public String toString() {
            return s;
        }
    }

    /** A small JSON reader (RFC 8259) and writer, UTF-16 strings as Java holds them. */
    static final class Json {
        /**
         * JSON's two-character escapes: the letter after the backslash, and (at the same index
         * in ESCAPED_CHARS) the character it stands for. `\/` is read, never written.
         */
        static final String ESCAPE_LETTERS = "\"\\/bfnrt";
        static final String ESCAPED_CHARS = "\"\\/\b\f\n\r\t";

        final String s;
        int i;

        Json(String s) {
            this.s = s;
        }

        Object document() {
            Object v = value();
            space();
            if (i != s.length()) {
                throw error("text after the value");
            }
            return v;
        }

        IllegalArgumentException error(String why) {
            return new IllegalArgumentException("bad JSON at column " + (i + 1) + ": " + why);
        }

        void space() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    break;
                }
                i++;
            }
        }

        Object value() {
            space();
            if (i >= s.length()) {
                throw error("a value is missing");
            }
            char c = s.charAt(i);
            switch (c) {
                case '{': return object();
                case '[': return array();
                case '"': return string();
                case 't': return word("true", Boolean.TRUE);
                case 'f': return word("false", Boolean.FALSE);
                case 'n': return word("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected '" + c + "'");
            }
        }

        Object word(String w, Object v) {
            if (!s.startsWith(w, i)) {
                throw error("want " + w);
            }
            i += w.length();
            return v;
        }

        /** Whether the next char is `c`, then read past it. */
        boolean eat(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        /**
         * After an item of an object or array that `close` ends: whether that was the last
         * (`close` read), or a `,` read before the next.
         */
        boolean end(char close) {
            space();
            if (eat(',')) {
                return false;
            }
            if (eat(close)) {
                return true;
            }
            throw error("want ',' or '" + close + "'");
        }

        Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            space();
            if (eat('}')) {
                return m;
            }
            while (true) {
                space();
                if (i >= s.length() || s.charAt(i) != '"') {
                    throw error("want a key");
                }
                String k = string();
                space();
                if (!eat(':')) {
                    throw error("want ':'");
                }
                m.put(k, value());
                if (end('}')) {
                    return m;
                }
            }
        }

        List<Object> array() {
            List<Object> a = new ArrayList<>();
            i++;
            space();
            if (eat(']')) {
                return a;
            }
            while (true) {
                a.add(value());
                if (end(']')) {
                    return a;
                }
            }
        }

        /** Reads past ASCII digits: how many. */
        int digits() {
            int d = i;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            return i - d;
        }

        Object number() {
            int start = i;
            eat('-');
            // One 0, or digits that do not start with 0.
            if (!eat('0') && digits() == 0) {
                throw error("bad number");
            }
            boolean integral = true;
            if (eat('.')) {
                integral = false;
                if (digits() == 0) {
                    throw error("bad fraction");
                }
            }
            if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                integral = false;
                i++;
                if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                    i++;
                }
                if (digits() == 0) {
                    throw error("bad exponent");
                }
            }
            String t = s.substring(start, i);
            if (integral) {
                try {
                    return Long.parseLong(t);
                } catch (NumberFormatException e) {
                    // Too large for a long: kept as a double, as JSON readers do.
                }
            }
            return Double.parseDouble(t);
        }

        String string() {
            i++;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    throw error("a raw control character in a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(i++);
                int at = ESCAPE_LETTERS.indexOf(e);
                if (at >= 0) {
                    b.append(ESCAPED_CHARS.charAt(at));
                    continue;
                }
                if (e != 'u') {
                    throw error("bad escape \\" + e);
                }
                // One UTF-16 code unit: a pair written as two escapes becomes the pair, a lone
                // surrogate stays one (Java strings may hold it).
                if (i + 4 > s.length()) {
                    throw error("short \\u escape");
                }
                int v = 0;
                for (int k = 0; k < 4; k++) {
                    int d = Character.digit(s.charAt(i + k), 16);
                    if (d < 0 || s.charAt(i + k) >= 128) {
                        throw error("bad \\u escape");
                    }
                    v = v * 16 + d;
                }
                i += 4;
                b.append((char) v);
            }
        }

        static String write(Object v) {
            StringBuilder b = new StringBuilder();
            write(b, v);
            return b.toString();
        }

        static void write(StringBuilder b, Object v) {
            if (v == null) {
                b.append("null");
            } else if (v instanceof String) {
                quote(b, (String) v);
            } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long) {
                b.append(v);
            } else if (v instanceof Map) {
                writeItems(b, '{', ((Map<?, ?>) v).entrySet(), '}', e -> {
                    quote(b, (String) e.getKey());
                    b.append(": ");
                    write(b, e.getValue());
                });
            } else if (v instanceof List) {
                writeItems(b, '[', (List<?>) v, ']', o -> write(b, o));
            } else {
                throw new IllegalArgumentException("cannot write " + v.getClass());
            }
        }

        /** `items` between `open` and `close`, each written by `item`, ", " between them. */
        static <T> void writeItems(
                StringBuilder b, char open, Iterable<T> items, char close, Consumer<T> item) {
            b.append(open);
            boolean first = true;
            for (T x : items) {
                if (!first) {
                    b.append(", ");
                }
                first = false;
                item.accept(x);
            }
            b.append(close);
        }

        /**
         * A JSON string: `"` `\` and the C0 controls escaped, a surrogate pair written as its
         * character (UTF-8 on the way out), a lone surrogate as a \\uXXXX escape.
         */
        static void quote(StringBuilder b, String s) {
            b.append('"');
            for (int k = 0; k < s.length(); k++) {
                char c = s.charAt(k);
                int at = c == '/' ? -1 : ESCAPED_CHARS.indexOf(c);
                if (at >= 0) {
                    b.append('\\').append(ESCAPE_LETTERS.charAt(at));
                } else if (c < 0x20) {
                    escape(b, c);
                } else if (Character.isHighSurrogate(c) && k + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(k + 1))) {
                    b.append(c).append(s.charAt(k + 1));
                    k++;
                } else if (Character.isSurrogate(c)) {
                    escape(b, c);
                } else {
                    b.append(c);
                }
            }
            b.append('"');
        }

        static void escape(StringBuilder b, char c) {
            b.append(String.format("\\u%04x", (int) c));
        }
    }
}
