package org.poollab.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Preset;

/**
 * Reads Markdown documentation and says where it names a {@code bench.*} property that is
 * not a setting of the lab, a preset that does not exist, or a relative link (a file, or
 * a heading by its GitHub anchor) that leads nowhere, and where an options table
 * disagrees with {@link BenchSetting}. What is valid comes from the code:
 * {@link BenchSetting} (through {@link BenchSettingFailureAnalyzer#knownNames()}), the
 * {@code bench.*} system properties the main sources read directly, and
 * {@link Preset#ALL}.
 */
final class DocsTruth {

	/**
	 * A {@code bench.*} name as the docs write it: not part of a longer dotted or slashed
	 * name ({@code org.poollab.bench.report}, {@code target/bench/latest}), nor of a word
	 * ({@code -Pbench}), but possibly right after {@code -D}. Kebab-case allowed.
	 */
	static final Pattern SETTING = Pattern
		.compile("(?:(?<=-D)|(?<![\\w.$/\\-]))bench((?:\\.[A-Za-z][A-Za-z0-9_\\-]*)+)");

	/** The lab's refusal of an unknown name, quoted in the docs as an example. */
	static final Pattern QUOTED_REFUSAL = Pattern
		.compile("(bench\\.[A-Za-z0-9_.\\-]+)=\\S* is not a setting of the lab");

	static final Pattern PRESET_VALUE = Pattern.compile("bench\\.preset=([^\\s`'\",;)|]+)");

	static final Pattern PRESET_WORD = Pattern.compile("`([A-Za-z][\\w-]*)` presets?\\b");

	/** {@code [text](target)} and {@code ![alt](target "title")}. */
	static final Pattern LINK = Pattern
		.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");

	private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");

	private static final Pattern SOURCE_PROPERTY = Pattern.compile(
			"(?:System\\.getProperty|Integer\\.getInteger|Long\\.getLong|Boolean\\.getBoolean)\\(\\s*\"(bench\\.[^\"]+)\"");

	/** One wrong thing, where it is. */
	record Problem(Path file, int line, String what) {

		@Override
		public String toString() {
			return this.file + ":" + this.line + ": " + this.what;
		}

	}

	private final Set<String> settings;

	private final Set<String> groups;

	private final Set<String> presets;

	DocsTruth(Collection<String> settingNames, Collection<String> presetNames) {
		this.settings = settingNames.stream().map(SettingNames::uniform).collect(Collectors.toSet());
		this.groups = new TreeSet<>();
		for (String name : this.settings) {
			for (int dot = name.indexOf('.', "bench.".length()); dot > 0; dot = name.indexOf('.', dot + 1)) {
				this.groups.add(name.substring(0, dot));
			}
		}
		this.presets = presetNames.stream().map((name) -> name.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
	}

	/**
	 * The lab's settings and presets, from its code: every property of
	 * {@link BenchProperties}, every {@code bench.*} system property a main source reads
	 * itself (the acquire-cost benchmark's), and the resize token's name, which the lab
	 * refuses by name (the docs say so).
	 * @param mainSources {@code src/main/java}
	 * @return the checker
	 */
	static DocsTruth ofTheLab(Path mainSources) {
		List<String> names = new ArrayList<>(BenchSettingFailureAnalyzer.knownNames());
		names.addAll(propertiesReadIn(mainSources));
		names.add(ResizeCredential.PROPERTY);
		return new DocsTruth(names, Preset.ALL.stream().map(Preset::name).toList());
	}

	static List<String> propertiesReadIn(Path sources) {
		try (Stream<Path> files = Files.walk(sources)) {
			List<String> names = new ArrayList<>();
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				Matcher matcher = SOURCE_PROPERTY.matcher(Files.readString(file));
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			}
			return names;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Every {@code bench.*} name, preset and relative link in the files that is wrong.
	 */
	List<Problem> check(List<Path> files) {
		Set<String> quoted = new LinkedHashSet<>();
		for (Path file : files) {
			Matcher refusal = QUOTED_REFUSAL.matcher(read(file));
			while (refusal.find()) {
				quoted.add(SettingNames.uniform(refusal.group(1)));
			}
		}
		List<Problem> problems = new ArrayList<>();
		for (Path file : files) {
			List<String> lines = lines(file);
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i);
				settings(file, i + 1, line, quoted, problems);
				presets(file, i + 1, line, problems);
			}
			links(file, problems);
		}
		return problems;
	}

	private void settings(Path file, int number, String line, Set<String> quoted, List<Problem> problems) {
		Matcher matcher = SETTING.matcher(line);
		while (matcher.find()) {
			String written = ("bench" + matcher.group(1)).replaceAll("-+$", "");
			String uniform = SettingNames.uniform(written);
			if (!this.settings.contains(uniform) && !this.groups.contains(uniform) && !quoted.contains(uniform)) {
				problems.add(new Problem(file, number, written + " is not a setting of the lab"));
			}
		}
	}

	private void presets(Path file, int number, String line, List<Problem> problems) {
		for (Pattern pattern : List.of(PRESET_VALUE, PRESET_WORD)) {
			Matcher matcher = pattern.matcher(line);
			while (matcher.find()) {
				String name = matcher.group(1);
				if (!name.startsWith("<") && !this.presets.contains(name.toLowerCase(Locale.ROOT))) {
					problems.add(new Problem(file, number, "preset " + name + " does not exist (presets: "
							+ String.join(", ", new TreeSet<>(this.presets)) + ")"));
				}
			}
		}
	}

	private void links(Path file, List<Problem> problems) {
		for (Link link : links(file)) {
			Path target = link.target();
			if (target == null) {
				continue;
			}
			if (!Files.exists(target)) {
				problems.add(new Problem(file, link.line(),
						"link " + link.written() + " points at nothing (" + target.normalize() + " does not exist)"));
			}
			else if (link.anchor() != null && target.toString().endsWith(".md")
					&& !anchors(target).contains(link.anchor())) {
				problems.add(new Problem(file, link.line(),
						"link " + link.written() + " points at no heading of " + target.normalize()));
			}
		}
	}

	/**
	 * An options table's header: {@code | option | default | allowed | what it does |}.
	 */
	static final Pattern OPTIONS_HEADER = Pattern
		.compile("^\\|\\s*option\\s*\\|\\s*default\\s*\\|\\s*allowed\\s*\\|\\s*what it does\\s*\\|\\s*$");

	/**
	 * Where the options tables of the pages disagree with {@link BenchSetting}, the home
	 * of each setting's facts: a row's default is the setting's (a parenthetical note may
	 * follow), its allowed values are the setting's, and what it does starts with the
	 * setting's description; code spans count as plain text. Every setting has a row in
	 * one of the pages, and every {@code bench.*} row names a setting.
	 * @param pages the pages with options tables
	 * @return what disagrees, where
	 */
	static List<Problem> checkOptionTables(List<Path> pages) {
		List<Problem> problems = new ArrayList<>();
		Set<BenchSetting> documented = EnumSet.noneOf(BenchSetting.class);
		for (Path page : pages) {
			List<String> lines = lines(page);
			boolean table = false;
			for (int i = 0; i < lines.size(); i++) {
				String line = lines.get(i);
				if (OPTIONS_HEADER.matcher(line).matches()) {
					table = true;
					continue;
				}
				table = table && line.startsWith("|");
				if (!table || line.startsWith("|---")) {
					continue;
				}
				List<String> cells = cells(line);
				String option = cells.get(0);
				if (!option.startsWith("bench.")) {
					continue;
				}
				Optional<BenchSetting> named = Arrays.stream(BenchSetting.values())
					.filter((setting) -> setting.property().equals(option))
					.findFirst();
				if (named.isEmpty()) {
					problems.add(new Problem(page, i + 1, option + " has a row but is not a setting of the lab"));
					continue;
				}
				BenchSetting setting = named.get();
				documented.add(setting);
				if (cells.size() != 4) {
					problems.add(new Problem(page, i + 1, option + " has " + cells.size() + " cells, not 4"));
					continue;
				}
				String defaultValue = cells.get(1);
				if (!defaultValue.equals(setting.defaultValue())
						&& !(defaultValue.startsWith(setting.defaultValue() + " (") && defaultValue.endsWith(")"))) {
					problems.add(new Problem(page, i + 1, "%s's default is \"%s\", BenchSetting.%s's is \"%s\""
						.formatted(option, defaultValue, setting.name(), setting.defaultValue())));
				}
				if (!cells.get(2).equals(setting.allowed())) {
					problems.add(new Problem(page, i + 1, "%s allows \"%s\", BenchSetting.%s \"%s\"".formatted(option,
							cells.get(2), setting.name(), setting.allowed())));
				}
				if (!cells.get(3).startsWith(setting.description())) {
					problems.add(new Problem(page, i + 1, "what %s does does not start with BenchSetting.%s's \"%s\""
						.formatted(option, setting.name(), setting.description())));
				}
			}
		}
		Set<BenchSetting> missing = EnumSet.allOf(BenchSetting.class);
		missing.removeAll(documented);
		for (BenchSetting setting : missing) {
			problems.add(new Problem(pages.get(0), 0, setting.property() + " has no row"));
		}
		return problems;
	}

	/** A table row's cells as plain text: code spans' backticks and escapes dropped. */
	private static List<String> cells(String row) {
		String inner = row.strip().replaceAll("^\\|", "").replaceAll("\\|$", "");
		return Arrays.stream(inner.split("(?<!\\\\)\\|", -1))
			.map((cell) -> cell.replace("`", "").replace("\\|", "|").strip())
			.toList();
	}

	/**
	 * The pages reachable from {@code start} by relative links, {@code start} included.
	 */
	static Set<Path> reachable(Path start) {
		Set<Path> seen = new LinkedHashSet<>();
		Deque<Path> queue = new ArrayDeque<>(List.of(start.toAbsolutePath().normalize()));
		while (!queue.isEmpty()) {
			Path page = queue.pop();
			if (seen.add(page)) {
				for (Link link : links(page)) {
					Path target = link.target();
					if (target != null && target.toString().endsWith(".md") && Files.isRegularFile(target)) {
						queue.add(target.toAbsolutePath().normalize());
					}
				}
			}
		}
		return seen;
	}

	/**
	 * A relative link.
	 *
	 * @param line where it is
	 * @param written as written
	 * @param target the file it leads to (the page itself for {@code #anchor})
	 * @param anchor the heading's anchor, or {@code null}
	 */
	record Link(int line, String written, Path target, String anchor) {
	}

	/** The relative links outside code: no scheme ({@code https:}, {@code mailto:}). */
	static List<Link> links(Path file) {
		List<Link> links = new ArrayList<>();
		List<String> lines = lines(file);
		boolean fenced = false;
		for (int i = 0; i < lines.size(); i++) {
			if (FENCE.matcher(lines.get(i)).find()) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			String line = blankInlineCode(lines.get(i));
			Matcher matcher = LINK.matcher(line);
			while (matcher.find()) {
				String written = matcher.group(1);
				if (written.matches("^[A-Za-z][A-Za-z0-9+.\\-]*:.*")) {
					continue;
				}
				int hash = written.indexOf('#');
				String path = (hash < 0) ? written : written.substring(0, hash);
				String anchor = (hash < 0) ? null : written.substring(hash + 1);
				Path target = path.isEmpty() ? file : file.toAbsolutePath().getParent().resolve(path);
				links.add(new Link(i + 1, written, target, anchor));
			}
		}
		return links;
	}

	/** A code span's text becomes spaces, so that nothing in it reads as a link. */
	private static String blankInlineCode(String line) {
		Matcher matcher = INLINE_CODE.matcher(line);
		StringBuilder blanked = new StringBuilder();
		while (matcher.find()) {
			matcher.appendReplacement(blanked, " ".repeat(matcher.group().length()));
		}
		return matcher.appendTail(blanked).toString();
	}

	/** The anchors GitHub gives the page's headings (outside code blocks). */
	static Set<String> anchors(Path file) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : lines(file)) {
			if (FENCE.matcher(line).find()) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (!fenced && heading.matches()) {
				String slug = slug(heading.group(2));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * A heading's anchor as GitHub makes it: the text as shown (links and code spans by
	 * their text, no emphasis marks), lower case, without punctuation but hyphens and
	 * underscores, spaces as hyphens.
	 */
	static String slug(String heading) {
		String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
		return text.strip()
			.toLowerCase(Locale.ROOT)
			.replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} \\-]", "")
			.replace(' ', '-');
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<String> lines(Path file) {
		return read(file).lines().toList();
	}

}
