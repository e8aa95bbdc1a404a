# Differential oracle: runs cases through Ruby's Regexp (Onigmo) and prints the results as JSON
# lines.
#
# Input (stdin): one JSON object a line, {"pattern", "flags" (letters of "imx"), "text",
# "replace" (optional)}.
# Output: one line for each, in order:
# - {"error": text} when Regexp.new refuses the pattern: the RegexpError's message without the
#   ": /pattern/" Ruby appends;
# - {"timeout": true} when the scan takes longer than two seconds;
# - else {"names": [...], "matches": [[[s, e] | null, ...], ...], "bytes": [...], "replaced"?}:
#   "names" the group names by number (null for a group without one, "" for group 0);
#   "matches" every match of String#scan (Ruby's loop: after an empty match the next search
#   starts one character later), each a list of the spans of the match and its groups in
#   characters, and "bytes" the same in UTF-8 bytes; "replaced" is gsub(regexp, replace) with
#   the template read as gsub reads it, or "replace_error" the exception's message.
#
# The flags are Regexp::IGNORECASE (i), MULTILINE (m: dot-all) and EXTENDED (x). Warnings are
# silenced. Run by rxw_testkit::ruby_oracle_answers with Debian's ruby (3.1).
require 'json'
require 'timeout'

$VERBOSE = nil
$stdout.sync = true

def opts(letters)
  o = 0
  o |= Regexp::IGNORECASE if letters.include?('i')
  o |= Regexp::MULTILINE if letters.include?('m')
  o |= Regexp::EXTENDED if letters.include?('x')
  o
end

def bytes_at(text, chars)
  text[0, chars].bytesize
end

$stdin.each_line do |line|
  next if line.strip.empty?
  c = JSON.parse(line)
  pattern = c['pattern']
  text = c['text']
  begin
    re = Regexp.new(pattern, opts(c['flags'] || ''))
  rescue RegexpError => e
    puts JSON.generate({ 'error' => e.message.sub(/: \/.*\z/m, '') })
    next
  end
  count = nil
  answer = {}
  begin
    Timeout.timeout(2) do
      matches = []
      bytes = []
      text.scan(re) do
        m = Regexp.last_match
        count ||= m.size - 1
        spans = (0...m.size).map { |i| m.begin(i).nil? ? nil : [m.begin(i), m.end(i)] }
        matches << spans
        bytes << spans.map { |s| s && [bytes_at(text, s[0]), bytes_at(text, s[1])] }
      end
      answer['matches'] = matches
      answer['bytes'] = bytes
      if c.key?('replace')
        begin
          answer['replaced'] = text.gsub(re, c['replace'])
        rescue StandardError => e
          answer['replace_error'] = e.message
        end
      end
    end
  rescue Timeout::Error
    puts JSON.generate({ 'timeout' => true })
    next
  end
  # Group names by number: Regexp#names with #named_captures' numbers.
  by_number = {}
  re.named_captures.each { |name, numbers| numbers.each { |n| by_number[n] = name } }
  # Without a match, the group count comes from the pattern with an empty alternative.
  count ||= begin
    Regexp.new("(?:#{pattern}\n)|", re.options).match('').size - 1
  rescue RegexpError
    by_number.keys.max || 0
  end
  names = [''] + (1..count).map { |n| by_number[n] }
  answer['names'] = names
  puts JSON.generate(answer)
end
