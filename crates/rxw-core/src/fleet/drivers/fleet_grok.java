// Runs exported Elasticsearch grok processors on joni, the Java port of Oniguruma that
// Elasticsearch's grok library compiles with, the way that library does: each `%{NAME}` of
// the processor's patterns is replaced by `(?:definition)` (`%{NAME:field}` by a group named
// `NAME:field`) until none is left; several patterns are tried as one alternation; the
// expression is compiled as UTF-8 with the default options and Ruby syntax, searched once
// (the first hit), and every named group gives a field (the part after the first `:` of its
// name, the first of its groups that took part).
//
// Input on standard input, one record a line, fields tab-separated and escaped (\\ \t \n \r):
//   D <key> <name> <definition>   (a pattern definition of the pipeline <key>)
//   P <key> <grok pattern>        (one of the processor's patterns, in order)
//   R <text>                      (one value of the processor's field per line)
// Output: one line per hit, H <key> <line_no> <match> then <field> <value> pairs, escaped,
// \N for a field no group of which took part; E <key> <why> for a processor grok rejects.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jcodings.specific.UTF8Encoding;
import org.joni.Matcher;
import org.joni.NameEntry;
import org.joni.Option;
import org.joni.Regex;
import org.joni.Region;
import org.joni.Syntax;

public class Grok {
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    // A reference to a named pattern: %{NAME}, %{NAME:field}, %{NAME:field:type}, %{NAME=definition}.
    static final String REFERENCE = "%\\{(?<name>(?<pattern>[A-z0-9]+)(?::(?<subname>[[:alnum:]@\\[\\]_:.-]+))?)"
        + "(?:=(?<definition>(?:[^{}]+|\\.+)+))?\\}";
    static final Regex REFERENCE_REGEX = new Regex(utf8(REFERENCE), 0, utf8(REFERENCE).length, Option.NONE,
        UTF8Encoding.INSTANCE, Syntax.DEFAULT);

    static String group(String name, Region region, byte[] text) {
        byte[] n = utf8(name);
        int k = REFERENCE_REGEX.nameToBackrefNumber(n, 0, n.length, region);
        if (region.beg[k] < 0) return null;
        return new String(text, region.beg[k], region.end[k] - region.beg[k], StandardCharsets.UTF_8);
    }

    static String toRegex(String grok, Map<String, String> bank) {
        StringBuilder done = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = utf8(grok);
            Matcher m = REFERENCE_REGEX.matcher(bytes);
            int at = m.search(0, bytes.length, Option.NONE);
            if (at < 0) return done.append(grok).toString();
            Region region = m.getEagerRegion();
            String ref = group("name", region, bytes);
            String sub = group("subname", region, bytes);
            String patternName = group("pattern", region, bytes);
            String definition = bank.get(patternName);
            if (definition == null) {
                throw new IllegalArgumentException("Unable to find pattern [" + patternName + "] in Grok's pattern dictionary");
            }
            if (definition.contains("%{" + patternName + "}") || definition.contains("%{" + patternName + ":")) {
                throw new IllegalArgumentException("circular reference in pattern back [" + patternName + "]");
            }
            String part = sub != null ? "(?<" + ref + ">" + definition + ")" : "(?:" + definition + ")";
            done.append(new String(bytes, 0, at, StandardCharsets.UTF_8));
            grok = part + new String(bytes, region.end[0], bytes.length - region.end[0], StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("Can not convert grok patterns to regular expression");
    }

    static String combine(List<String> patterns) {
        if (patterns.size() == 1) return patterns.get(0);
        StringBuilder b = new StringBuilder();
        for (String p : patterns) {
            if (b.length() > 0) b.append('|');
            b.append("(?:").append(p).append(')');
        }
        return b.toString();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        Map<String, Map<String, String>> banks = new LinkedHashMap<>();
        Map<String, List<String>> patterns = new LinkedHashMap<>();
        List<String> rows = new ArrayList<>();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("D") && f.length >= 4) {
                banks.computeIfAbsent(Fields.unescape(f[1]), k -> new LinkedHashMap<>()).put(Fields.unescape(f[2]), Fields.unescape(f[3]));
            } else if (f[0].equals("P") && f.length >= 3) {
                patterns.computeIfAbsent(Fields.unescape(f[1]), k -> new ArrayList<>()).add(Fields.unescape(f[2]));
            } else if (f[0].equals("R") && f.length >= 2) {
                rows.add(Fields.unescape(f[1]));
            }
        }
        for (Map.Entry<String, List<String>> p : patterns.entrySet()) {
            String key = p.getKey();
            Regex re;
            try {
                String expression = toRegex(combine(p.getValue()), banks.getOrDefault(key, Map.of()));
                byte[] e = utf8(expression);
                re = new Regex(e, 0, e.length, Option.DEFAULT, UTF8Encoding.INSTANCE, message -> {});
            } catch (RuntimeException e) {
                out.println("E\t" + Fields.escape(key) + "\t" + Fields.escape(e.getClass().getSimpleName() + ": " + e.getMessage()));
                continue;
            }
            List<String> names = new ArrayList<>();
            List<int[]> refs = new ArrayList<>();
            for (Iterator<NameEntry> it = re.namedBackrefIterator(); it.hasNext(); ) {
                NameEntry n = it.next();
                String[] parts = new String(n.name, n.nameP, n.nameEnd - n.nameP, StandardCharsets.UTF_8).split(":");
                names.add(parts.length >= 2 ? parts[1] : parts[0]);
                refs.add(n.getBackRefs());
            }
            for (int i = 0; i < rows.size(); i++) {
                byte[] text = utf8(rows.get(i));
                Matcher m = re.matcher(text, 0, text.length);
                if (m.search(0, text.length, Option.DEFAULT) == Matcher.FAILED) continue;
                StringBuilder b = new StringBuilder();
                b.append("H\t").append(Fields.escape(key)).append('\t').append(i + 1).append('\t');
                b.append(Fields.escape(new String(text, m.getBegin(), m.getEnd() - m.getBegin(), StandardCharsets.UTF_8)));
                Region region = m.getEagerRegion();
                for (int k = 0; k < names.size(); k++) {
                    String value = null;
                    for (int g : refs.get(k)) {
                        if (region != null && region.beg[g] >= 0) {
                            value = new String(text, region.beg[g], region.end[g] - region.beg[g], StandardCharsets.UTF_8);
                            break;
                        }
                    }
                    b.append('\t').append(Fields.escape(names.get(k))).append('\t').append(Fields.escape(value));
                }
                out.println(b);
            }
        }
        out.flush();
    }
}
