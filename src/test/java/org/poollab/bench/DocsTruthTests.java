package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.settings.BenchSetting;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs stay true: README.md and every page under {@code src/site/markdown} name only
 * settings the lab has and presets that exist, every relative link (a file, or a heading
 * by its GitHub anchor) leads somewhere, every page is reachable from the README, each
 * preset's arrivals, repeats and hold are those of the grid it runs, and no page states a
 * count of the suite's tests. The README stays a front page.
 */
class DocsTruthTests {

	private static final Path README = Path.of("README.md");

	private static final Path PAGES = Path.of("src", "site", "markdown");

	private static final Path PICTURE = Path.of("src", "site", "resources", "images", "report.png");

	private final DocsTruth truth = DocsTruth.ofTheLab(Path.of("src", "main", "java"));

	@Test
	void theReadmeAndEveryPageNameOnlySettingsPresetsAndTargetsThatExist() throws IOException {
		assertThat(this.truth.check(docs())).as("wrong in the docs (file:line: what)").isEmpty();
	}

	/**
	 * The options tables (options.md, and target-mode.md for target mode's own) say what
	 * {@link BenchSetting} says: every setting's default, what is allowed and what it
	 * does.
	 */
	@Test
	void theOptionsTablesSayWhatEachSettingsHomeSays() {
		assertThat(DocsTruth.checkOptionTables(List.of(PAGES.resolve("options.md"), PAGES.resolve("target-mode.md"))))
			.as("options tables that disagree with BenchSetting (file:line: what)")
			.isEmpty();
	}

	@Test
	void anOptionsRowThatDisagreesWithItsSettingOrIsMissingIsCaught(@TempDir Path dir) throws IOException {
		Path page = write(dir, "options.md",
				"""
						# Options

						| option | default | allowed | what it does |
						|---|---|---|---|
						| `bench.basePort` | `18081` | a port from 1024 to 65000 | The first port the lab listens on; the others follow. `-Dbench.basePort=19000` |
						| `bench.rates` | preset | comma-separated whole numbers from 1 to 100000 | The request rates swept, of the whole fleet |
						| `bench.instances` | `3` (multi) | a whole number from 1 to 16 | Instances |
						| `bench.poolSize` | preset | anything | Pool sizes |
						| `LAB_POOL_RESIZE_TOKEN` (environment) | none | a token | not a bench setting |
						""");
		List<String> problems = DocsTruth.checkOptionTables(List.of(page))
			.stream()
			.map(DocsTruth.Problem::toString)
			.toList();
		assertThat(problems)
			.contains(page + ":5: bench.basePort's default is \"18081\", BenchSetting.BASE_PORT's is \"18080\"", page
					+ ":6: bench.rates allows \"comma-separated whole numbers from 1 to 100000\", BenchSetting.RATES \""
					+ BenchSetting.RATES.allowed() + "\"",
					page + ":7: what bench.instances does does not start with BenchSetting.INSTANCES's \""
							+ BenchSetting.INSTANCES.description() + "\"",
					page + ":8: bench.poolSize has a row but is not a setting of the lab",
					page + ":0: bench.preset has no row")
			.noneMatch((problem) -> problem.contains("bench.basePort allows") || problem.contains("LAB_POOL")
					|| problem.contains("bench.instances's default") || problem.contains("bench.rates has no row"));
	}

	/**
	 * options.md's rows for arrivals, repeats and the holds, and presets.md's table, say
	 * for each preset what the grid it runs does (the grid {@code GridSettings} builds
	 * from the preset alone, as a sweep with no other setting would).
	 */
	@Test
	void eachPresetsArrivalsRepeatsAndHoldAreWhatItsGridRuns() {
		assertThat(DocsTruth.checkPresetDefaults(PAGES.resolve("options.md")))
			.as("options rows that disagree with a preset's grid (file:line: what)")
			.isEmpty();
		assertThat(DocsTruth.checkPresetsTable(PAGES.resolve("presets.md")))
			.as("presets table cells that disagree with a preset's grid (file:line: what)")
			.isEmpty();
	}

	@Test
	void aPresetFactThatDisagreesWithItsGridOrIsMissingIsCaught(@TempDir Path dir) throws IOException {
		Path options = write(dir, "options.md",
				"""
						| option | default | allowed | what it does |
						|---|---|---|---|
						| `bench.arrivals` | preset (`full`, `threads`, `mysql` and `slo`: `random`; the others: `even`) | even or random | How |
						| `bench.repeats` | preset (`contention`: 2; the others: 1; target mode: 2) | 1 to 100 | How often |
						| `bench.holdTime` | preset (`full`: 15ms) | a mean | How long |
						""");
		assertThat(DocsTruth.checkPresetDefaults(options)).map(DocsTruth.Problem::toString)
			.contains(options + ":3: bench.arrivals says even for preset contention; its grid runs random",
					options + ":4: bench.repeats says 2 for target mode; with preset full it runs 1",
					options + ":5: bench.holdTime says nothing for preset quick",
					options + ":0: bench.holdCpu has no row")
			.noneMatch(
					(problem) -> problem.contains("for preset full") || problem.contains("repeats says 2 for preset"));
		Path presets = write(dir, "presets.md", """
				| preset | reproduces | grid | arrivals | repeats | hold | wall time here |
				|---|---|---|---|---|---|---|
				| `contention` | HikariCP | pools 1, 2, 4, 64 | `even` | 2 | 5ms of database CPU | – |
				| `full` (default) | – | pools 1, 2, 5, 10, 50 | `random` | 1 | 15ms (`pg_sleep`) | – |
				""");
		assertThat(DocsTruth.checkPresetsTable(presets)).map(DocsTruth.Problem::toString)
			.contains(presets + ":3: preset contention's arrivals are \"even\" here; its grid's are \"random\"",
					presets + ":0: preset quick has no row in a presets table")
			.noneMatch((problem) -> problem.contains("preset full") || problem.contains("contention's repeats")
					|| problem.contains("contention's hold"));
	}

	@Test
	void noPageStatesACountOfTheSuitesTests() throws IOException {
		assertThat(DocsTruth.checkTestCounts(docs())).as("counts of tests in the docs (file:line: what)").isEmpty();
	}

	@Test
	void aCountOfTestsIsCaughtAndOtherCountsAreNot(@TempDir Path dir) throws IOException {
		Path page = write(dir, "page.md", """
				# A page

				`./mvnw test` runs 848 unit tests; `./mvnw verify` adds 115 integration tests.
				| 691f870 | 632 + 107 tests | green |
				Tests run: 848, Failures: 0
				Five report tests, 40 requests, 2 repeats, `ItTimeBudgetTests` and 3 test JVMs.
				""");
		assertThat(DocsTruth.checkTestCounts(List.of(page))).map(DocsTruth.Problem::line).containsExactly(3, 3, 4, 5);
	}

	@Test
	void everyPageIsReachableFromTheReadme() throws IOException {
		Set<Path> reachable = DocsTruth.reachable(README);
		assertThat(pages()).allSatisfy((page) -> assertThat(reachable).as("pages reachable from README.md")
			.contains(page.toAbsolutePath().normalize()));
	}

	@Test
	void theReadmeIsAFrontPageThatOpensWithTheTwoCommandsAndShowsARealReport() throws IOException {
		assertThat(Files.size(README)).as("README.md in bytes").isLessThanOrEqualTo(12_288);
		assertThat(Files.readString(README)).startsWith("""
				# Pool-sizing lab

				```
				./mvnw verify -Pbench    # the main job""")
			.contains("./mvnw verify            # the tests")
			.contains("](" + PICTURE.toString().replace('\\', '/') + ")");
		assertThat(Files.size(PICTURE)).as("the report's picture in bytes").isBetween(10_000L, 400_000L);
	}

	@Test
	void aMadeUpSettingIsCaughtWithItsFileAndLine(@TempDir Path dir) throws IOException {
		Path page = write(dir, "page.md", """
				# A page

				Run it with `-Dbench.notASetting=5`, or bench.pool-sizes=2 and BENCH_POOLSIZES (one setting).
				""");
		assertThat(this.truth.check(List.of(page))).map(DocsTruth.Problem::toString)
			.containsExactly(page + ":3: bench.notASetting is not a setting of the lab");
	}

	@Test
	void packagesPathsTheBenchProfileGroupsAndAQuotedRefusalAreNotMistakenForSettings(@TempDir Path dir)
			throws IOException {
		Path page = write(dir, "page.md", """
				# A page

				`org.poollab.bench.report.ReportMain` on `target/bench/latest`, `./mvnw verify -Pbench`,
				`bench/report/Decision.java`, any `bench.*` property, `bench.database.*` and
				`-Dbench.acquire.poolSize=10`. `-Dbench.poolSize=5` answers
				`bench.poolSize=5 is not a setting of the lab: did you mean bench.poolSizes?`.
				""");
		assertThat(this.truth.check(List.of(page))).isEmpty();
	}

	@Test
	void aPresetThatDoesNotExistIsCaught(@TempDir Path dir) throws IOException {
		Path page = write(dir, "page.md", """
				# A page

				`-Dbench.preset=Paper` and the `quick` preset, `-Dbench.preset=<name>`.
				`-Dbench.preset=huge`; the `tiny` preset.
				""");
		assertThat(this.truth.check(List.of(page))).map(DocsTruth.Problem::toString)
			.hasSize(2)
			.allSatisfy((problem) -> assertThat(problem).startsWith(page + ":4: preset "))
			.anySatisfy((problem) -> assertThat(problem).contains("preset huge does not exist"))
			.anySatisfy((problem) -> assertThat(problem).contains("preset tiny does not exist"));
	}

	@Test
	void aLinkToNothingOrToNoHeadingIsCaughtAndCodeAndOtherSitesAreLeftAlone(@TempDir Path dir) throws IOException {
		write(dir, "other.md", """
				# Other

				## The reactive twin and `bench.stack`

				## Notes

				## Notes
				""");
		Path page = write(dir, "page.md", """
				# Page

				[ok](other.md#the-reactive-twin-and-benchstack), [ok](other.md#notes-1), [ok](#page),
				[site](https://example.org/missing.md), `[code](nowhere.md)`, [dir](.)
				[gone](missing.md) [no heading](other.md#notes-2)

				```
				[in a block](nowhere.md)
				```
				""");
		assertThat(this.truth.check(List.of(page))).map(DocsTruth.Problem::toString)
			.satisfiesExactly(
					(problem) -> assertThat(problem).startsWith(page + ":5: link missing.md points at nothing"),
					(problem) -> assertThat(problem)
						.startsWith(page + ":5: link other.md#notes-2 points at no heading of"));
	}

	@Test
	void headingsGetGitHubsAnchors() {
		assertThat(DocsTruth.slug("The reactive twin and `bench.stack`")).isEqualTo("the-reactive-twin-and-benchstack");
		assertThat(DocsTruth.slug("JDBC vs R2DBC (`reactive`)")).isEqualTo("jdbc-vs-r2dbc-reactive");
		assertThat(DocsTruth.slug("Target mode: a deployment the lab did not start"))
			.isEqualTo("target-mode-a-deployment-the-lab-did-not-start");
		assertThat(DocsTruth.slug("Looking for something in particular?"))
			.isEqualTo("looking-for-something-in-particular");
		assertThat(DocsTruth.slug("Acquire cost: pooled vs unpooled")).isEqualTo("acquire-cost-pooled-vs-unpooled");
	}

	private static List<Path> docs() throws IOException {
		return Stream.concat(Stream.of(README), pages().stream()).toList();
	}

	private static List<Path> pages() throws IOException {
		try (Stream<Path> files = Files.walk(PAGES)) {
			return files.filter((path) -> path.toString().endsWith(".md")).sorted().toList();
		}
	}

	private static Path write(Path dir, String name, String text) throws IOException {
		return Files.writeString(dir.resolve(name), text);
	}

}
