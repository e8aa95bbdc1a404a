
// The fields of the records the fleet's Java drivers read and write: tab-separated, with
// \\ \t \n \r as backslash escapes and \N for null. Appended to each driver's source (the
// JVM runs a source-file program from one file; the first class in it is the program).
final class Fields {
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 't' ? '\t' : n == 'n' ? '\n' : n == 'r' ? '\r' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static String escape(String s) {
        if (s == null) return "\\N";
        return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }
}
