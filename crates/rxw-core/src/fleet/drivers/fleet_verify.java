// Runs exported Spark patterns on java.util.regex, as Spark's regexp_extract_all does
// (Matcher.find from the start, every hit, group k of each), and prints every hit.
//
// Input on standard input, one record a line, fields tab-separated and escaped (\\ \t \n \r):
//   P <key> <pattern> <group numbers, comma-separated>   (one line per pattern)
//   R <text>                                             (one line per row)
// Output: one line per hit, H <key> <line_no> <match> <group>..., escaped, \N for an unset
// group; E <key> <why> for a pattern java.util.regex rejects.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Verify {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        List<String[]> patterns = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("P")) patterns.add(new String[] {Fields.unescape(f[1]), Fields.unescape(f[2]), f[3]});
            else if (f[0].equals("R")) rows.add(Fields.unescape(f[1]));
        }
        for (String[] p : patterns) {
            Pattern re;
            try {
                re = Pattern.compile(p[1]);
            } catch (RuntimeException e) {
                out.println("E\t" + Fields.escape(p[0]) + "\t" + Fields.escape(e.getMessage()));
                continue;
            }
            String[] groups = p[2].isEmpty() ? new String[0] : p[2].split(",");
            for (int i = 0; i < rows.size(); i++) {
                Matcher m = re.matcher(rows.get(i));
                while (m.find()) {
                    StringBuilder b = new StringBuilder();
                    b.append("H\t").append(Fields.escape(p[0])).append('\t').append(i + 1).append('\t').append(Fields.escape(m.group()));
                    for (String g : groups) b.append('\t').append(Fields.escape(m.group(Integer.parseInt(g))));
                    out.println(b);
                }
            }
        }
        out.flush();
    }
}
