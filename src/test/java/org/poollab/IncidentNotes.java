package org.poollab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds incident notes in Java comments: the history of a measurement or a fix (a date, a
 * session, a machine named by when it was used, an issue of this project, a commit, the
 * issue's wording), where a comment should give the contract and the reason. The history
 * belongs on the measurements pages; a comment that needs a figure points there.
 * <p>
 * A test rather than a Checkstyle rule: Checkstyle's comment check ({@code TodoComment})
 * matches one line at a time, so a note broken over two lines ("the next / session's
 * machine") slips through, and it cannot be tried on a planted file within
 * {@code ./mvnw test}. This scanner reads comments only (never string literals, text
 * blocks or character literals), joins a comment's lines, and names the file and line
 * where each note starts. An upstream issue is cited by its link
 * ({@code https://github.com/owner/repo/issues/4188}), which no rule matches.
 */
final class IncidentNotes {

	/** One note, where it starts. */
	record Note(Path file, int line, String what) {

		@Override
		public String toString() {
			return this.file + ":" + this.line + ": " + this.what;
		}

	}

	/** What a note looks like, and what to call it. */
	record Rule(Pattern pattern, String says) {

		static Rule of(String regex, String says) {
			return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), says);
		}

	}

	static final List<Rule> RULES = List.of(Rule.of("\\b(?:19|20)\\d{2}-\\d{2}-\\d{2}\\b", "a date"),
			Rule.of("\\b(?:this|that|last|next|previous|earlier|later|same|first|second|third)\\s+session\\b",
					"a session"),
			Rule.of("\\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|next|previous|last|earlier|later"
					+ "|yesterday's|today's|that\\s+day's)\\s+(?:session's\\s+)?(?:machine|box|VM)\\b",
					"a machine named by when it was used"),
			Rule.of("\\bissues?\\s*#?\\d+|(?<![\\w/&-])#\\d+\\b", "an issue number (cite an upstream one by its link)"),
			Rule.of("\\bthe\\s+issue\\s+(?:asks|asked|says|said|wants|wanted|requires|required)\\b",
					"the issue's wording"),
			Rule.of("\\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\\b", "a commit"));

	private IncidentNotes() {
	}

	/**
	 * The notes in the comments of every {@code .java} file under {@code sources}.
	 * @param sources a source tree, e.g. {@code src/main/java}
	 * @return the notes, file by file, in order
	 */
	static List<Note> in(Path sources) {
		try (Stream<Path> files = Files.walk(sources)) {
			List<Note> notes = new ArrayList<>();
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
				notes.addAll(inFile(file, Files.readString(file, StandardCharsets.UTF_8)));
			}
			return notes;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static List<Note> inFile(Path file, String source) {
		List<Note> notes = new ArrayList<>();
		for (Comment comment : comments(source)) {
			for (Rule rule : RULES) {
				Matcher matcher = rule.pattern().matcher(comment.text());
				while (matcher.find()) {
					notes.add(new Note(file, comment.lineAt(matcher.start()),
							rule.says() + ": \"" + matcher.group() + "\""));
				}
			}
		}
		notes.sort((a, b) -> Integer.compare(a.line(), b.line()));
		return notes;
	}

	/**
	 * A comment's text, its lines joined by single spaces (a block comment's leading
	 * {@code *} dropped), and the line each character came from.
	 */
	record Comment(String text, int[] lines) {

		int lineAt(int index) {
			return this.lines[Math.min(index, this.lines.length - 1)];
		}

	}

	/**
	 * The comments of a Java source, outside string, text block and character literals.
	 */
	static List<Comment> comments(String source) {
		List<Comment> comments = new ArrayList<>();
		int line = 1;
		int i = 0;
		int n = source.length();
		while (i < n) {
			char c = source.charAt(i);
			if (c == '\n') {
				line++;
				i++;
			}
			else if (source.startsWith("//", i) || source.startsWith("/*", i)) {
				boolean block = source.charAt(i + 1) == '*';
				int end = block ? source.indexOf("*/", i + 2) : source.indexOf('\n', i);
				end = (end < 0) ? n : end;
				comments.add(comment(source.substring(i + 2, end), line));
				line += (int) source.substring(i, end).chars().filter((ch) -> ch == '\n').count();
				i = block ? Math.min(n, end + 2) : end;
			}
			else if (source.startsWith("\"\"\"", i)) {
				int end = source.indexOf("\"\"\"", i + 3);
				while (end > 0 && source.charAt(end - 1) == '\\') {
					end = source.indexOf("\"\"\"", end + 1);
				}
				end = (end < 0) ? n : end + 3;
				line += (int) source.substring(i, end).chars().filter((ch) -> ch == '\n').count();
				i = end;
			}
			else if (c == '"' || c == '\'') {
				int j = i + 1;
				while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') {
					j += (source.charAt(j) == '\\') ? 2 : 1;
				}
				i = j + 1;
			}
			else {
				i++;
			}
		}
		return comments;
	}

	private static Comment comment(String raw, int firstLine) {
		StringBuilder text = new StringBuilder();
		List<Integer> lines = new ArrayList<>();
		int line = firstLine;
		String[] parts = raw.split("\n", -1);
		for (int p = 0; p < parts.length; p++) {
			String part = (p == 0) ? parts[p] : parts[p].replaceFirst("^\\s*\\*?", "");
			part = part.strip();
			if (!part.isEmpty()) {
				if (text.length() > 0) {
					text.append(' ');
					lines.add(line);
				}
				for (int k = 0; k < part.length(); k++) {
					text.append(part.charAt(k));
					lines.add(line);
				}
			}
			line++;
		}
		return new Comment(text.toString(), lines.stream().mapToInt(Integer::intValue).toArray());
	}

}
