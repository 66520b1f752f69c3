package org.poollab.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SortedSet;
import java.util.TreeSet;

import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;

/**
 * Writes a sweep's report into its run directory: {@code report.md}, {@code report.html}
 * (opens offline) and {@code recommended-application.yml}.
 */
public final class Report {

	/**
	 * Confirmation runs per topology: the answer's, and when that refutes it, the next
	 * answer's. Each is a fresh start with its warm-up (about 90 s here), so a third did
	 * not fit the default preset's 15 minutes.
	 */
	public static final int MAX_CONFIRMATIONS = 2;

	static final String MARKDOWN = "report.md";

	static final String HTML = "report.html";

	static final String RECOMMENDED_YAML = "recommended-application.yml";

	private Report() {
	}

	/**
	 * Write the three report files into {@code runDir}, replacing earlier ones.
	 * @param results what the sweep measured
	 * @param runDir the run's directory; JMeter dashboards under
	 * {@code dashboards/<topology>-pool<p>-rate<r>-rep<k>/index.html} are linked when
	 * present, and an {@code acquire-cost.json} of the acquire-cost benchmark is reported
	 * @return one recommendation per topology, in the order the topologies ran
	 * @throws IOException if a file cannot be written, or the run's
	 * {@code acquire-cost.json} cannot be read
	 */
	public static List<Recommendation> write(SweepResults measured, Path runDir) throws IOException {
		SweepResults results = measured.withPredictions();
		if (results.slo() != null) {
			// An SLO search answers one question, not a grid: its own report.
			SloReport.write(results, runDir);
			return List.of();
		}
		List<Grid> grids = Grid.of(results);
		List<Recommendation> recommendations = grids.stream().map((grid) -> recommend(results, grid)).toList();
		List<Section> sections = Section.all(results, grids, recommendations, runDir);
		Files.createDirectories(runDir);
		if (sections.isEmpty()) {
			throw new IllegalArgumentException("results hold no points: nothing to report in " + runDir);
		}
		Optional<AcquireCost> acquireCost = AcquireCost.read(runDir);
		Files.writeString(runDir.resolve(MARKDOWN), MarkdownReport.render(results, sections, acquireCost),
				StandardCharsets.UTF_8);
		Files.writeString(runDir.resolve(HTML), HtmlReport.render(results, sections, acquireCost),
				StandardCharsets.UTF_8);
		Files.writeString(runDir.resolve(RECOMMENDED_YAML), RecommendedYaml.render(sections), StandardCharsets.UTF_8);
		return recommendations;
	}

	/**
	 * The SLO search's block for its answer, as recommended-hikari.yml will hold it: what
	 * its confirmation run starts the instance with.
	 * @param results results holding the search
	 * @return the block, empty when the search found no pool
	 */
	public static Optional<String> sloBlock(SweepResults results) {
		SloAnswer answer = SloAnswer.of(results);
		return Optional.ofNullable(results.slo().chosenPool()).map((pool) -> SloYaml.settings(answer, pool, false));
	}

	/**
	 * The console's account of an SLO search: question, path, answer, confirmation,
	 * fleet.
	 */
	public static void printSlo(SweepResults results, PrintStream out) {
		SloReport.print(results, out);
	}

	/** The SLO search's question in one line, as the report and the yml say it. */
	public static String sloQuestion(SloSearch.Asked asked) {
		return SloText.question(asked);
	}

	/** Milliseconds as the report writes them. */
	public static String ms(double valueMs) {
		return Recommender.ms(valueMs);
	}

	/**
	 * A deployment's recommended block, for the confirmation run.
	 *
	 * @param deployment the topology with its request threads when the sweep varied them,
	 * e.g. {@code multi} or {@code single-virtual} ({@code Planned.deploymentLabel})
	 * @param poolSize the block's {@code maximum-pool-size}
	 * @param rateRps the rate the pool size was chosen at
	 * @param yaml the block as {@code recommended-application.yml} will hold it, byte for
	 * byte
	 */
	public record Block(String deployment, int poolSize, int rateRps, String yaml) {
	}

	/**
	 * The blocks worth confirming: one per topology whose measurements chose a HikariCP
	 * pool size at some rate (not behind pgbouncer, whose answer is pgbouncer's pool).
	 * @param results what the sweep measured
	 * @param runDir the run's directory
	 * @return the blocks, in the order the topologies ran
	 */
	public static List<Block> toConfirm(SweepResults results, Path runDir) {
		List<Grid> grids = Grid.of(results);
		List<Recommendation> recommendations = grids.stream().map((grid) -> recommend(results, grid)).toList();
		return Section.all(results, grids, recommendations, runDir)
			.stream()
			.filter((section) -> !section.grid().behindPgBouncer())
			.filter((section) -> section.recommendation().verdict().conclusive()
					&& section.recommendation().poolSize().isPresent()
					&& section.recommendation().decidingRateRps().isPresent())
			.map((section) -> new Block(section.grid().key(), section.recommendation().poolSize().getAsInt(),
					section.recommendation().decidingRateRps().getAsInt(), RecommendedYaml.settings(section, "")))
			.toList();
	}

	/**
	 * A topology whose decision is not settled, and the cells that decide it.
	 *
	 * @param topology the topology
	 * @param rateRps the deciding rate
	 * @param chosen the pool size chosen now
	 * @param probability how often the redone decision picks it
	 * @param pools the pool sizes to measure again: the choice, its smaller neighbour and
	 * the pool the redone decision picks most often instead, largest first
	 */
	public record Unsettled(String topology, int rateRps, int chosen, double probability, List<Integer> pools) {
	}

	/**
	 * How settled a deployment's decision is (adaptive effort).
	 * @param results the results so far
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Block#deployment})
	 * @return how often the redone decision picks the choice; empty when the verdict did
	 * not come from intervals
	 */
	public static OptionalDouble probability(SweepResults results, String deployment) {
		return Grid.of(results)
			.stream()
			.filter((grid) -> grid.key().equals(deployment))
			.findFirst()
			.map((grid) -> recommend(results, grid).probability())
			.orElse(OptionalDouble.empty());
	}

	/**
	 * The deployment's decision when it is not settled (picked less often than 80 % when
	 * redone on drawn p99s).
	 * @param results the results so far
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Block#deployment})
	 * @return what to measure again; empty when the decision is settled or did not come
	 * from intervals
	 */
	public static Optional<Unsettled> unsettled(SweepResults results, String deployment) {
		Optional<Grid> grid = Grid.of(results).stream().filter((one) -> one.key().equals(deployment)).findFirst();
		if (grid.isEmpty()) {
			return Optional.empty();
		}
		Recommendation recommendation = recommend(results, grid.get());
		if (recommendation.probability().isEmpty()
				|| recommendation.probability().getAsDouble() >= IntervalVerdict.SETTLED_PROBABILITY
				|| recommendation.decidingRateRps().isEmpty()) {
			return Optional.empty();
		}
		int chosen = recommendation.poolSize().getAsInt();
		int rate = recommendation.decidingRateRps().getAsInt();
		SortedSet<Integer> pools = new TreeSet<>(Comparator.reverseOrder());
		pools.add(chosen);
		grid.get()
			.cells()
			.stream()
			.filter((cell) -> cell.rateRps() == rate && cell.poolSize() > 0 && cell.poolSize() < chosen)
			.mapToInt(Cell::poolSize)
			.max()
			.ifPresent(pools::add);
		recommendation.picks().keySet().stream().filter((pool) -> pool != chosen).findFirst().ifPresent(pools::add);
		return Optional.of(new Unsettled(deployment, rate, chosen, recommendation.probability().getAsDouble(),
				List.copyOf(pools)));
	}

	/**
	 * A point that decides a topology's answer.
	 *
	 * @param topology the topology
	 * @param poolLabel its pool size as the report names it
	 * @param rateRps the deciding rate
	 * @param repeat which repeat
	 */
	public record Deciding(String topology, String poolLabel, int rateRps, int repeat) {
	}

	/**
	 * The points that decide each topology's answer: every repeat of the chosen pool size
	 * and of its smaller neighbour at the deciding rate.
	 * @param results what the sweep measured
	 * @return the points, topology by topology
	 */
	public static List<Deciding> deciding(SweepResults results) {
		List<Deciding> deciding = new ArrayList<>();
		for (Grid grid : Grid.of(results)) {
			for (Cell cell : grid.deciding(recommend(results, grid))) {
				cell.points()
					.forEach((point) -> deciding
						.add(new Deciding(grid.topology(), cell.poolLabel(), cell.rateRps(), point.repeat())));
			}
		}
		return deciding;
	}

	/**
	 * What a deployment's confirmation run showed, in a sentence (the console's line).
	 * @param results the results, with their confirmations
	 * @param deployment the topology, with its request threads when the sweep varied them
	 * (e.g. {@code single-virtual}: {@link Block#deployment})
	 * @return the sentence; empty when the deployment had no confirmation run
	 */
	public static String confirmationLine(SweepResults results, String deployment) {
		return Confirmed.of(results, deployment).map(Confirmed::sentence).orElse("");
	}

	/**
	 * The rule applied to a topology's grid, leaving out the pool sizes its confirmation
	 * runs refuted.
	 */
	private static Recommendation recommend(SweepResults results, Grid grid) {
		return Recommender.recommend(grid, results.host(), results.databaseOf(grid.limits()),
				Confirmed.refuted(results, grid.key()));
	}

	/**
	 * Read {@code runDir/results.json} and write the report next to it.
	 * @param runDir a run directory the sweep wrote
	 * @return one recommendation per topology
	 * @throws IOException if the results cannot be read or the report written
	 */
	public static List<Recommendation> regenerate(Path runDir) throws IOException {
		return write(ResultsStore.read(runDir.resolve(ResultsStore.RESULTS_JSON)), runDir);
	}

	/**
	 * {@link #regenerate}, saying on {@code out} which shape of {@code results.json} it
	 * read.
	 */
	static List<Recommendation> regenerate(Path runDir, PrintStream out) throws IOException {
		ResultsStore.Read read = ResultsStore.readWithShape(runDir.resolve(ResultsStore.RESULTS_JSON));
		out.println(ResultsStore.RESULTS_JSON + ": " + read.shape().description() + ".");
		return write(read.results(), runDir);
	}

}
