// Differential oracle: runs cases through .NET's System.Text.RegularExpressions (as Mono runs
// it) and prints the results as JSON lines.
//
// Input (stdin, UTF-8): one JSON object a line, {"pattern", "flags" (letters of "imsx"),
// "text", "replace" (optional)}, string values only.
// Output: one line for each, in order:
// - {"error": text} when new Regex refuses the pattern: the ArgumentException's description,
//   without the `parsing "PATTERN" - ` in front of it;
// - {"timeout": true} when matching takes longer than two seconds;
// - {"engine_error": type} when Mono's matcher throws (it does, on some patterns);
// - else {"names": [...], "matches": [[[s, e] | null, ...], ...], "replaced"?, "replace_error"?,
//   "runtime"}: "names" the group names by number ("" for group 0, null for a group without
//   a name); "matches" every match of Regex.Matches, each the spans of the match and of its
//   groups in UTF-16 units (null for a group that did not take part); "replaced" is
//   Regex.Replace(text, replace), or "replace_error" its exception's message; "runtime" the
//   Mono version.
//
// The flags are RegexOptions IgnoreCase (i), Multiline (m), Singleline (s) and
// IgnorePatternWhitespace (x), with CultureInvariant. Compiled with mcs and run with mono by
// rxw_testkit::dotnet_oracle_answers.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Text.RegularExpressions;

public static class DotnetOracle
{
    static int pos;
    static string src;

    static void Skip() { while (pos < src.Length && char.IsWhiteSpace(src[pos])) pos++; }

    static string ReadString()
    {
        Skip();
        if (src[pos] != '"') throw new FormatException("a string expected at " + pos);
        pos++;
        var sb = new StringBuilder();
        while (src[pos] != '"')
        {
            char c = src[pos++];
            if (c != '\\') { sb.Append(c); continue; }
            char e = src[pos++];
            switch (e)
            {
                case 'n': sb.Append('\n'); break;
                case 't': sb.Append('\t'); break;
                case 'r': sb.Append('\r'); break;
                case 'b': sb.Append('\b'); break;
                case 'f': sb.Append('\f'); break;
                case 'u': sb.Append((char)Convert.ToInt32(src.Substring(pos, 4), 16)); pos += 4; break;
                default: sb.Append(e); break;
            }
        }
        pos++;
        return sb.ToString();
    }

    static Dictionary<string, string> ReadObject(string line)
    {
        src = line; pos = 0;
        var d = new Dictionary<string, string>();
        Skip();
        if (src[pos++] != '{') throw new FormatException("an object expected");
        for (;;)
        {
            Skip();
            if (src[pos] == '}') break;
            if (src[pos] == ',') { pos++; continue; }
            string k = ReadString();
            Skip();
            pos++; // ':'
            d[k] = ReadString();
        }
        return d;
    }

    static string Json(string s)
    {
        if (s == null) return "null";
        var sb = new StringBuilder("\"");
        for (int i = 0; i < s.Length; i++)
        {
            char c = s[i];
            bool pair = char.IsHighSurrogate(c) && i + 1 < s.Length && char.IsLowSurrogate(s[i + 1]);
            bool lone = !pair && char.IsSurrogate(c) && !(char.IsLowSurrogate(c) && i > 0 && char.IsHighSurrogate(s[i - 1]));
            // A lone half of a pair (a match that cut one) as U+FFFD, as rxw writes it.
            if (lone) sb.Append("\\ufffd");
            else if (c == '"') sb.Append("\\\"");
            else if (c == '\\') sb.Append("\\\\");
            else if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF)) sb.Append("\\u" + ((int)c).ToString("x4"));
            else sb.Append(c);
        }
        return sb.Append('"').ToString();
    }

    // `time` mode: one JSON object {"pattern", "prefix", "pump", "suffix"} on stdin; one search
    // of prefix + pump * n + suffix for n = 8, 10, 12, ... until a search takes over 0.3 s (or
    // n passes 60), printed as [[n, seconds], ...].
    static void Time(StreamReader stdin, StreamWriter stdout)
    {
        var c = ReadObject(stdin.ReadToEnd().Trim());
        var re = new Regex(c["pattern"], RegexOptions.CultureInvariant);
        var sb = new StringBuilder("[");
        for (int n = 8; ; n += 2)
        {
            var s = new StringBuilder(c["prefix"]);
            for (int k = 0; k < n; k++) s.Append(c["pump"]);
            s.Append(c["suffix"]);
            var watch = System.Diagnostics.Stopwatch.StartNew();
            re.IsMatch(s.ToString());
            double t = watch.Elapsed.TotalSeconds;
            if (n > 8) sb.Append(", ");
            sb.Append("[" + n + ", " + t.ToString(System.Globalization.CultureInfo.InvariantCulture) + "]");
            if (t > 0.3 || n > 60) break;
        }
        stdout.WriteLine(sb.Append(']').ToString());
        stdout.Flush();
    }

    static string Answer(Dictionary<string, string> c, string runtime)
    {
        string pattern = c["pattern"];
        string text = c["text"];
        string letters = c.ContainsKey("flags") ? c["flags"] : "";
        var options = RegexOptions.CultureInvariant;
        if (letters.Contains("i")) options |= RegexOptions.IgnoreCase;
        if (letters.Contains("m")) options |= RegexOptions.Multiline;
        if (letters.Contains("s")) options |= RegexOptions.Singleline;
        if (letters.Contains("x")) options |= RegexOptions.IgnorePatternWhitespace;
        Regex re;
        try
        {
            re = new Regex(pattern, options, TimeSpan.FromSeconds(2));
        }
        catch (ArgumentException e)
        {
            string msg = e.Message;
            string prefix = "parsing \"" + pattern + "\" - ";
            if (msg.StartsWith(prefix, StringComparison.Ordinal)) msg = msg.Substring(prefix.Length);
            return "{\"error\": " + Json(msg) + "}";
        }
        var sb = new StringBuilder("{\"names\": [");
        int[] numbers = re.GetGroupNumbers();
        for (int i = 0; i < numbers.Length; i++)
        {
            if (i > 0) sb.Append(", ");
            string name = re.GroupNameFromNumber(numbers[i]);
            if (numbers[i] == 0) sb.Append("\"\"");
            else if (name == numbers[i].ToString()) sb.Append("null");
            else sb.Append(Json(name));
        }
        sb.Append("], \"matches\": [");
        try
        {
            bool first = true;
            foreach (Match m in re.Matches(text))
            {
                if (!first) sb.Append(", ");
                first = false;
                sb.Append('[');
                for (int i = 0; i < numbers.Length; i++)
                {
                    if (i > 0) sb.Append(", ");
                    Group g = m.Groups[numbers[i]];
                    if (g.Success) sb.Append("[" + g.Index + ", " + (g.Index + g.Length) + "]");
                    else sb.Append("null");
                }
                sb.Append(']');
            }
            sb.Append(']');
            if (c.ContainsKey("replace"))
            {
                try
                {
                    sb.Append(", \"replaced\": " + Json(re.Replace(text, c["replace"])));
                }
                catch (ArgumentException e)
                {
                    sb.Append(", \"replace_error\": " + Json(e.Message));
                }
            }
        }
        catch (RegexMatchTimeoutException)
        {
            return "{\"timeout\": true}";
        }
        catch (Exception e)
        {
            // Mono's interpreter itself fails on some patterns (an IndexOutOfRangeException
            // in RegexRunner.Uncapture): no answer to compare with.
            return "{\"engine_error\": " + Json(e.GetType().Name) + "}";
        }
        sb.Append(", \"runtime\": " + Json(runtime) + "}");
        return sb.ToString();
    }

    public static void Main(string[] args)
    {
        var utf8 = new UTF8Encoding(false);
        var stdin = new StreamReader(Console.OpenStandardInput(), utf8);
        var stdout = new StreamWriter(Console.OpenStandardOutput(), utf8);
        stdout.NewLine = "\n";
        if (args.Length > 0 && args[0] == "time")
        {
            Time(stdin, stdout);
            return;
        }
        string runtime = "mono";
        var mono = Type.GetType("Mono.Runtime");
        if (mono != null)
        {
            var m = mono.GetMethod("GetDisplayName", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static);
            if (m != null) runtime = "mono " + m.Invoke(null, null);
        }
        string line;
        while ((line = stdin.ReadLine()) != null)
        {
            if (line.Trim().Length == 0) continue;
            var c = ReadObject(line);
            string answer = null;
            var worker = new System.Threading.Thread(() => { answer = Answer(c, runtime); }, 64 * 1024 * 1024);
            worker.Start();
            if (!worker.Join(5000))
            {
                // Mono's interpreter loops for ever on some patterns, past its own timeout.
                worker.Abort();
                answer = "{\"timeout\": true}";
            }
            stdout.WriteLine(answer ?? "{\"engine_error\": \"no answer\"}");
            stdout.Flush();
        }
        stdout.Flush();
    }
}
