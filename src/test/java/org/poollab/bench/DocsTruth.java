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
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.settings.BenchBinder;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.bench.settings.BenchSetting;
import org.poollab.bench.settings.GridSettings;
import org.poollab.bench.settings.SettingNames;
import org.poollab.service.hold.HoldTime;

/**
 * Reads Markdown documentation and says where it names a {@code bench.*} property that is
 * not a setting of the lab, a preset that does not exist, or a relative link (a file, or
 * a heading by its GitHub anchor) that leads nowhere, and where an options table
 * disagrees with {@link BenchSetting}, where a page's arrivals, repeats or hold of a
 * preset disagree with the grid that preset runs, and where a page states how many tests
 * the suite has. What is valid comes from the code: {@link BenchSetting}, the
 * {@code bench.*} system properties the main sources read directly, {@link Preset#ALL}
 * and the grids {@link GridSettings} builds from them.
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
		List<String> names = new ArrayList<>(BenchSetting.properties());
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

	/**
	 * What a grid does about the facts the pages repeat per preset: its arrivals
	 * ({@code even} or {@code random}), its repeats, its waiting hold and its
	 * database-CPU hold as settings write them ({@code 15ms}), {@code none} for no hold.
	 */
	record PresetFacts(String arrivals, String repeats, String hold, String cpuHold) {

		static PresetFacts of(Grid grid) {
			EmulatedHold hold = grid.hold();
			String waiting = (hold == null || hold.meanMs() <= 0) ? "none"
					: new HoldTime(hold.meanMs(), hold.p99Ms()).describe();
			String cpu = (hold == null || hold.cpuMs() == null) ? "none" : new HoldTime(hold.cpuMs(), null).describe();
			return new PresetFacts(grid.arrivals().label(), String.valueOf(grid.repeats()), waiting, cpu);
		}

		/**
		 * The hold as the presets page writes it: {@code 15ms},
		 * {@code 5ms of database CPU}.
		 */
		String holds() {
			List<String> holds = new ArrayList<>();
			if (!this.hold.equals("none")) {
				holds.add(this.hold);
			}
			if (!this.cpuHold.equals("none")) {
				holds.add(this.cpuHold + " of database CPU");
			}
			return holds.isEmpty() ? "none" : String.join(" and ", holds);
		}

	}

	/** The options rows whose default is the preset's, and the fact each repeats. */
	static final Map<BenchSetting, Function<PresetFacts, String>> PRESET_DEFAULTS = Map.of(BenchSetting.ARRIVALS,
			PresetFacts::arrivals, BenchSetting.REPEATS, PresetFacts::repeats, BenchSetting.HOLD_TIME,
			PresetFacts::hold, BenchSetting.HOLD_CPU, PresetFacts::cpuHold);

	/**
	 * The conditions an options row may name beside presets, each a setting added to
	 * every preset's own: the SLO search (any preset with {@code bench.targetRps}) and
	 * target mode (a deployment the lab did not start).
	 */
	static final Map<String, Map<String, String>> CONDITIONS = Map.of("the SLO search",
			Map.of("bench.targetRps", "1500"), "target mode", Map.of("bench.target", "external", "bench.targets",
					"http://127.0.0.1:8080", "bench.actuators", "http://127.0.0.1:8081/actuator"));

	/**
	 * The grid the lab runs for a preset and nothing else but the condition's settings; a
	 * preset without rates of its own ({@code slo}) is asked a question, as it must be.
	 */
	static PresetFacts factsOf(Preset preset, Map<String, String> condition) {
		Map<String, String> settings = new HashMap<>(condition);
		settings.put("bench.preset", preset.name());
		if (preset.rates().isEmpty()) {
			settings.putIfAbsent("bench.targetRps", "1500");
		}
		Binder binder = new Binder(new MapConfigurationPropertySource(settings));
		return PresetFacts.of(GridSettings.grid(BenchBinder.bind(binder)));
	}

	private static final Pattern PRESET_LIST = Pattern
		.compile("`([a-z]+)`(?:(?:,\\s*|\\s+and\\s+|,\\s+and\\s+)`([a-z]+)`)*");

	private static final Pattern PRESET_NAME = Pattern.compile("`([a-z]+)`");

	/**
	 * Where an options row whose default is the preset's ({@link #PRESET_DEFAULTS}) says
	 * another value for a preset than the grid that preset runs: its cell reads
	 * {@code preset (`full` and `slo`: `random`; the others: `even`; the SLO search:
	 * `random`)}, each part naming presets, {@code the others}, or a condition of
	 * {@link #CONDITIONS}, which then holds for every preset.
	 * @param page the options page
	 * @return what disagrees, where
	 */
	static List<Problem> checkPresetDefaults(Path page) {
		List<Problem> problems = new ArrayList<>();
		List<String> lines = lines(page);
		Set<BenchSetting> seen = EnumSet.noneOf(BenchSetting.class);
		for (int i = 0; i < lines.size(); i++) {
			List<String> raw = rawCells(lines.get(i));
			if (raw.size() < 2) {
				continue;
			}
			for (Map.Entry<BenchSetting, Function<PresetFacts, String>> fact : PRESET_DEFAULTS.entrySet()) {
				if (raw.get(0).equals("`" + fact.getKey().property() + "`")) {
					seen.add(fact.getKey());
					presetDefault(page, i + 1, fact.getKey().property(), raw.get(1), fact.getValue(), problems);
				}
			}
		}
		for (BenchSetting setting : PRESET_DEFAULTS.keySet()) {
			if (!seen.contains(setting)) {
				problems.add(new Problem(page, 0, setting.property() + " has no row"));
			}
		}
		return problems;
	}

	private static void presetDefault(Path page, int line, String option, String cell,
			Function<PresetFacts, String> fact, List<Problem> problems) {
		Matcher whole = Pattern.compile("^preset \\((.*)\\)$").matcher(cell);
		if (!whole.matches()) {
			problems.add(new Problem(page, line, option + "'s default does not say each preset's: " + cell));
			return;
		}
		Map<String, String> said = new HashMap<>();
		String others = null;
		for (String part : whole.group(1).split(";")) {
			int colon = part.lastIndexOf(':');
			String key = (colon < 0) ? part.strip() : part.substring(0, colon).strip();
			String value = (colon < 0) ? "" : part.substring(colon + 1).replace("`", "").strip();
			if (key.equals("the others")) {
				others = value;
			}
			else if (CONDITIONS.containsKey(key)) {
				condition(page, line, option, key, value, fact, problems);
			}
			else if (PRESET_LIST.matcher(key).matches()) {
				Matcher name = PRESET_NAME.matcher(key);
				while (name.find()) {
					said.put(name.group(1), value);
				}
			}
			else {
				problems.add(new Problem(page, line, option + " names neither presets nor a known condition: " + key));
			}
		}
		for (Preset preset : Preset.ALL) {
			String value = said.getOrDefault(preset.name(), others);
			String runs = fact.apply(factsOf(preset, Map.of()));
			if (value == null) {
				problems.add(new Problem(page, line, option + " says nothing for preset " + preset.name()));
			}
			else if (!value.equals(runs)) {
				problems.add(new Problem(page, line,
						"%s says %s for preset %s; its grid runs %s".formatted(option, value, preset.name(), runs)));
			}
		}
	}

	/**
	 * A condition holds for every preset the lab runs under it; a preset it refuses there
	 * (the {@code mysql} preset's two databases beside an SLO question) has nothing to
	 * disagree with.
	 */
	private static void condition(Path page, int line, String option, String condition, String value,
			Function<PresetFacts, String> fact, List<Problem> problems) {
		int ran = 0;
		for (Preset preset : Preset.ALL) {
			String runs;
			try {
				runs = fact.apply(factsOf(preset, CONDITIONS.get(condition)));
			}
			catch (BenchSettingException refused) {
				continue;
			}
			ran++;
			if (!runs.equals(value)) {
				problems.add(new Problem(page, line, "%s says %s for %s; with preset %s it runs %s".formatted(option,
						value, condition, preset.name(), runs)));
			}
		}
		if (ran == 0) {
			problems.add(new Problem(page, line, option + " names " + condition + ", which runs no preset"));
		}
	}

	/** A presets table's header, with a column for each fact. */
	static final Pattern PRESETS_HEADER = Pattern
		.compile("^\\|\\s*preset\\s*\\|.*\\|\\s*arrivals\\s*\\|\\s*repeats\\s*\\|\\s*hold\\s*\\|.*$");

	/**
	 * Where the presets table says other arrivals, repeats or hold for a preset than the
	 * grid it runs: each cell is the fact ({@code random}, {@code 2}, {@code 15ms},
	 * {@code 5ms of database CPU}, {@code none}), a parenthetical note may follow. Every
	 * preset has a row.
	 * @param page the presets page
	 * @return what disagrees, where
	 */
	static List<Problem> checkPresetsTable(Path page) {
		List<Problem> problems = new ArrayList<>();
		List<String> lines = lines(page);
		Set<String> rows = new TreeSet<>();
		List<String> header = null;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (PRESETS_HEADER.matcher(line).matches()) {
				header = cells(line);
				continue;
			}
			if (!line.startsWith("|")) {
				header = null;
			}
			if (header == null || line.startsWith("|---")) {
				continue;
			}
			List<String> cells = cells(line);
			String name = cells.get(0).replace(" (default)", "");
			Optional<Preset> preset = Preset.ALL.stream()
				.filter((candidate) -> candidate.name().equals(name))
				.findFirst();
			if (preset.isEmpty() || cells.size() != header.size()) {
				problems
					.add(new Problem(page, i + 1, "a row of no preset, or not " + header.size() + " cells: " + name));
				continue;
			}
			rows.add(name);
			PresetFacts runs = factsOf(preset.get(), Map.of());
			Map<String, String> expected = Map.of("arrivals", runs.arrivals(), "repeats", runs.repeats(), "hold",
					runs.holds());
			for (Map.Entry<String, String> fact : expected.entrySet()) {
				String cell = cells.get(header.indexOf(fact.getKey()));
				if (!cell.equals(fact.getValue()) && !cell.startsWith(fact.getValue() + " (")) {
					problems.add(new Problem(page, i + 1, "preset %s's %s are \"%s\" here; its grid's are \"%s\""
						.formatted(name, fact.getKey(), cell, fact.getValue())));
				}
			}
		}
		for (Preset preset : Preset.ALL) {
			if (!rows.contains(preset.name())) {
				problems.add(new Problem(page, 0, "preset " + preset.name() + " has no row in a presets table"));
			}
		}
		return problems;
	}

	/**
	 * A count of the suite's tests as a page might state it: {@code 848 unit tests},
	 * {@code 632 + 107 tests}, {@code Tests run: 848}.
	 */
	static final Pattern TEST_COUNT = Pattern.compile(
			"(?i)\\b\\d[\\d,]*\\s+(?:(?:fast\\s+)?unit|integration|unit\\s+and\\s+(?:slice|integration))?\\s*tests\\b"
					+ "|\\btests\\s+run:\\s*\\d|\\b\\d+\\s*\\+\\s*\\d+\\s+(?:unit|tests)\\b");

	/**
	 * Where a page states how many tests the suite has. The docs state no count, because
	 * none can be kept true without running the suite: Surefire and Failsafe count every
	 * invocation of a parameterized test and every dynamic test, which exist only while
	 * the suite runs, so a count of {@code @Test} methods found by scanning the test
	 * classes is not what they print, and a count copied from their output goes stale
	 * with the next test. building-and-testing.md says where they print theirs.
	 * @param files the pages, code blocks included
	 * @return each stated count, where
	 */
	static List<Problem> checkTestCounts(List<Path> files) {
		List<Problem> problems = new ArrayList<>();
		for (Path file : files) {
			List<String> lines = lines(file);
			for (int i = 0; i < lines.size(); i++) {
				Matcher count = TEST_COUNT.matcher(lines.get(i));
				while (count.find()) {
					problems.add(new Problem(file, i + 1, "states a count of tests (\"" + count.group()
							+ "\"), which goes stale: say where Surefire and Failsafe print theirs"));
				}
			}
		}
		return problems;
	}

	/** A table row's cells as written, code spans' backticks kept. */
	private static List<String> rawCells(String row) {
		if (!row.startsWith("|")) {
			return List.of();
		}
		String inner = row.strip().replaceAll("^\\|", "").replaceAll("\\|$", "");
		return Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::strip).toList();
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
