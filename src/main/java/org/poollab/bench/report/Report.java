package org.poollab.bench.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.poollab.bench.deciding.Answers;
import org.poollab.bench.deciding.Confirming;
import org.poollab.bench.deciding.Decisions;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SloSearch;
import org.poollab.bench.results.SweepResults;

/**
 * Writes a sweep's report into its run directory: {@code report.md}, {@code report.html}
 * (opens offline) and {@code recommended-application.yml}.
 */
public final class Report {

	public static final String MARKDOWN = "report.md";

	public static final String HTML = "report.html";

	public static final String RECOMMENDED_YAML = "recommended-application.yml";

	private Report() {
	}

	/**
	 * Write the three report files into {@code runDir}, replacing earlier ones.
	 * @param results what the sweep measured, as {@link ResultsStore} wrote or read it
	 * (with the queueing model beside every point; results never stored carry none)
	 * @param runDir the run's directory; JMeter dashboards under
	 * {@code dashboards/<topology>-pool<p>-rate<r>-rep<k>/index.html} are linked when
	 * present, and an {@code acquire-cost.json} of the acquire-cost benchmark is reported
	 * @return one recommendation per topology, in the order the topologies ran
	 * @throws IOException if a file cannot be written, or the run's
	 * {@code acquire-cost.json} cannot be read
	 */
	public static List<Recommendation> write(SweepResults results, Path runDir) throws IOException {
		if (results.slo() != null) {
			// An SLO search answers one question, not a grid: its own report.
			SloReport.write(results, runDir);
			return List.of();
		}
		// The rule runs once here; every part of the report draws its answers.
		Answers answers = Answers.of(results);
		List<Section> sections = Section.all(answers, runDir);
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
		return answers.recommendations();
	}

	/**
	 * The SLO search's block for its answer, as recommended-application.yml will hold it:
	 * what its confirmation run starts the instance with.
	 * @param results results holding the search
	 * @return the block, empty when the search found no pool
	 */
	public static Optional<String> sloBlock(SweepResults results) {
		SloAnswer answer = SloAnswer.of(results);
		return Optional.ofNullable(answer.search().chosenPool()).map((pool) -> SloYaml.settings(answer, pool, false));
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

	/**
	 * A choice's recommended block, as {@code recommended-application.yml} will hold it,
	 * for its confirmation run.
	 * @param answers the rule's answers for what the sweep measured so far
	 * @param runDir the run's directory
	 * @param choice one of {@link Answers#toConfirm()}
	 * @return the block to confirm
	 */
	public static Confirming block(Answers answers, Path runDir, Decisions.Choice choice) {
		Section section = Section.all(answers, runDir)
			.stream()
			.filter((one) -> one.grid().key().equals(choice.deployment()))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("no topology " + choice.deployment() + " in the results"));
		// The block as pasted: its pool may be the floor above the measured one.
		int poolSize = RecommendedYaml.reactive(section) ? choice.poolSize()
				: (int) RecommendedYaml.pasted(section).poolSize().orElse(choice.poolSize());
		return new Confirming(choice.deployment(), poolSize, choice.rateRps(), RecommendedYaml.settings(section, ""),
				answers.chosenAt(choice).orElse(null));
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
