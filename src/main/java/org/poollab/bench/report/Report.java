package org.poollab.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import tools.jackson.databind.json.JsonMapper;

import org.poollab.bench.SweepResults;

/**
 * Writes a sweep's report into its run directory: {@code report.md}, {@code report.html}
 * (opens offline) and {@code recommended-application.yml}.
 */
public final class Report {

	/** What the sweep writes and {@link #regenerate(Path)} reads. */
	public static final String RESULTS_FILE = "results.json";

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
	public static List<Recommendation> write(SweepResults results, Path runDir) throws IOException {
		List<Grid> grids = Grid.of(results);
		List<Recommendation> recommendations = grids.stream()
			.map((grid) -> Recommender.recommend(grid, results.host(), results.database()))
			.toList();
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
	 * A topology's recommended block, for the confirmation run.
	 *
	 * @param topology the topology, e.g. {@code multi}
	 * @param poolSize the block's {@code maximum-pool-size}
	 * @param rateRps the rate the pool size was chosen at
	 * @param yaml the block as {@code recommended-application.yml} will hold it, byte for
	 * byte
	 */
	public record Block(String topology, int poolSize, int rateRps, String yaml) {
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
		List<Recommendation> recommendations = grids.stream()
			.map((grid) -> Recommender.recommend(grid, results.host(), results.database()))
			.toList();
		return Section.all(results, grids, recommendations, runDir)
			.stream()
			.filter((section) -> !section.grid().behindPgBouncer())
			.filter((section) -> section.recommendation().verdict().conclusive()
					&& section.recommendation().poolSize().isPresent()
					&& section.recommendation().decidingRateRps().isPresent())
			.map((section) -> new Block(section.grid().topology(), section.recommendation().poolSize().getAsInt(),
					section.recommendation().decidingRateRps().getAsInt(), RecommendedYaml.settings(section, "")))
			.toList();
	}

	/**
	 * What a topology's confirmation run showed, in a sentence (the console's line).
	 * @param results the results, with their confirmations
	 * @param topology the topology
	 * @return the sentence; empty when the topology had no confirmation run
	 */
	public static String confirmationLine(SweepResults results, String topology) {
		return Confirmed.of(results, topology).map(Confirmed::sentence).orElse("");
	}

	/**
	 * Read {@code runDir/results.json} and write the report next to it.
	 * @param runDir a run directory the sweep wrote
	 * @return one recommendation per topology
	 * @throws IOException if the results cannot be read or the report written
	 */
	public static List<Recommendation> regenerate(Path runDir) throws IOException {
		return write(read(runDir.resolve(RESULTS_FILE)), runDir);
	}

	/**
	 * Read a {@code results.json}.
	 * @param resultsFile the file
	 * @return the results it holds
	 * @throws IOException if it cannot be read
	 */
	public static SweepResults read(Path resultsFile) throws IOException {
		if (!Files.isRegularFile(resultsFile)) {
			throw new IOException("No " + resultsFile + ": run the sweep first, or pass the run directory that holds "
					+ RESULTS_FILE);
		}
		try (InputStream in = Files.newInputStream(resultsFile)) {
			return JsonMapper.builder().build().readValue(in, SweepResults.class);
		}
	}

}
