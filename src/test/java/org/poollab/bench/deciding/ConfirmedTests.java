package org.poollab.bench.deciding;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.poollab.bench.report.Report;
import org.poollab.bench.report.ReportMain;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Confirmation.ChosenAt;
import org.poollab.bench.results.Interval;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.ResultsStore;
import org.poollab.bench.results.SweepResults;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A confirmation does not refute on one cold tail: a refuting window far outside the
 * grid's interval with a wide interval of its own is measured once more, and the second
 * window's refutation stands. The figures are the quiet default run of issue 45: pool 10
 * at 400 rps held p99 26 [24–29] ms in the grid, and its confirmation measured 203
 * [37–297] ms.
 */
class ConfirmedTests {

	private static final double OBJECTIVE_MS = 100;

	private static final ChosenAt GRID = new ChosenAt(ChosenAt.GRID, 26, new Interval(24, 29));

	@Test
	void aWideColdTailFarOutsideTheGridIsMeasuredAgain() {
		Confirmation run = confirmation(window(203, 37, 297), GRID);
		assertThat(Confirmed.verdict(run, OBJECTIVE_MS)).isEqualTo(Confirmed.Verdict.MEASURE_AGAIN);
		assertThat(Confirmed.measuringAgain(run)).isEqualTo("Measuring again on the same instances: p99 203 [37–297] "
				+ "ms was far outside the grid's 26 [24–29] ms with a wide interval of its own (a cold tail); a second "
				+ "refutation stands.");
	}

	@Test
	void aNarrowIntervalRefutationRefutesAtOnce() {
		Confirmation run = confirmation(window(203, 190, 215), GRID);
		assertThat(Confirmed.verdict(run, OBJECTIVE_MS)).isEqualTo(Confirmed.Verdict.REFUTED);
	}

	@Test
	void farOutsideMeansMoreThanTwiceTheGridsUpperBound() {
		// Twice the grid's upper bound is 58 ms: 110 [60–170] is outside, 57 is not far.
		assertThat(Confirmed.verdict(confirmation(window(110, 60, 170), GRID), 50))
			.isEqualTo(Confirmed.Verdict.MEASURE_AGAIN);
		assertThat(Confirmed.verdict(confirmation(window(57, 30, 90), GRID), 50)).isEqualTo(Confirmed.Verdict.REFUTED);
	}

	@Test
	void withoutAnIntervalToCompareARefutationStands() {
		assertThat(Confirmed.verdict(confirmation(window(203, 37, 297), null), OBJECTIVE_MS))
			.isEqualTo(Confirmed.Verdict.REFUTED);
		assertThat(Confirmed.verdict(confirmation(window(203, 37, 297), new ChosenAt(ChosenAt.GRID, 26, null)),
				OBJECTIVE_MS))
			.isEqualTo(Confirmed.Verdict.REFUTED);
		Point noInterval = RecommenderTests.point("single", 10, 400, 203);
		assertThat(Confirmed.verdict(confirmation(noInterval, GRID), OBJECTIVE_MS))
			.isEqualTo(Confirmed.Verdict.REFUTED);
	}

	@Test
	void aSecondRefutationStandsEvenAsAColdTail() {
		Confirmation again = confirmation(window(203, 37, 297), GRID).measuredAgain(window(180, 30, 260));
		assertThat(Confirmed.verdict(again, OBJECTIVE_MS)).isEqualTo(Confirmed.Verdict.REFUTED);
	}

	@Test
	void aColdTailNeitherRefutesNorHolds() {
		SweepResults results = grid().withConfirmations(List.of(confirmation(window(203, 37, 297), GRID)));
		assertThat(Confirmed.refuted(results, "single")).isEmpty();
		Confirmed confirmed = Confirmed.of(results, "single").orElseThrow();
		assertThat(confirmed.held()).isFalse();
		assertThat(confirmed.sentence()).contains("no verdict, its p99 203 [37–297] ms was far outside the grid's",
				"and it was not measured again.");
	}

	@Test
	void theGridsCellIsWhatTheConfirmationIsComparedWith() {
		Answers answers = Answers.of(grid());
		Decisions.Choice choice = answers.toConfirm("single").orElseThrow();
		assertThat(List.of(choice.poolSize(), choice.rateRps())).containsExactly(10, 400);
		assertThat(answers.chosenAt(choice)).hasValue(GRID);
	}

	@Test
	void aWindowMeasuredAgainThatHeldConfirmsAndTheReportSaysWhy(@TempDir Path outputs) throws Exception {
		Confirmation again = confirmation(window(203, 37, 297), GRID).measuredAgain(window(27, 25, 30));
		SweepResults results = grid().withConfirmations(List.of(again));
		assertThat(Confirmed.verdict(again, OBJECTIVE_MS)).isEqualTo(Confirmed.Verdict.HELD);
		String said = "It was measured again: its first window's p99 203 [37–297] ms was far outside the grid's 26 "
				+ "[24–29] ms with a wide interval of its own (a cold tail).";
		assertThat(Decisions.confirmationLine(results, "single")).startsWith("Confirmed (").endsWith(said);

		// Through results.json: both windows and what they were compared with are kept.
		ResultsStore store = ResultsStore.create(outputs, results.startedAt());
		store.write(results);
		Confirmation read = ResultsStore.read(store.directory().resolve(ResultsStore.RESULTS_JSON))
			.confirmations()
			.get(0);
		assertThat(read.chosenAt()).isEqualTo(GRID);
		assertThat(read.coldTail().latency().p99Ms()).isEqualTo(203);
		assertThat(read.point().latency().p99Ms()).isEqualTo(27);
		ReportMain.run(store.directory(), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
		assertThat(Files.readString(store.directory().resolve(Report.MARKDOWN))).contains(said);
		assertThat(Files.readString(store.directory().resolve(Report.RECOMMENDED_YAML)))
			.contains("measured again: its first window's p99 203");
	}

	/** One instance at 400 rps: pool 5 failed, pools 10 and 20 held. */
	private static SweepResults grid() {
		List<Point> points = List.of(
				DecisionTests.withInterval(RecommenderTests.point("single", 5, 400, 400, 300, 4500), 4200, 4800),
				window(10, 26, 24, 29), window(20, 25, 23, 28));
		return new SweepResults(Instant.parse("2026-11-28T04:00:00Z"), "test", RecommenderTests.HOST,
				RecommenderTests.DATABASE, OBJECTIVE_MS, null, points);
	}

	private static Point window(double p99Ms, double lowMs, double highMs) {
		return window(10, p99Ms, lowMs, highMs);
	}

	private static Point window(int poolSize, double p99Ms, double lowMs, double highMs) {
		return DecisionTests.withInterval(RecommenderTests.point("single", poolSize, 400, p99Ms), lowMs, highMs);
	}

	private static Confirmation confirmation(Point window, ChosenAt chosenAt) {
		return new Confirmation("single", "spring: {}\n",
				Map.of("maximum-pool-size", Integer.toString(window.poolSize())), List.of(), window, chosenAt, null);
	}

}
