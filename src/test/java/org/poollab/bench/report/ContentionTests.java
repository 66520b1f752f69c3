package org.poollab.bench.report;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;

import org.poollab.bench.deciding.DecisionTests;
import org.poollab.bench.deciding.RecommenderTests;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.results.CpuCeiling;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both sides of the knee, on results.json-shaped points where each request cost the
 * database 2 ms of CPU (issue 35's hand-made run at 400 rps, one instance, 2 cores).
 */
class ContentionTests {

	private static final double OBJECTIVE_MS = 100;

	private static final Limits CPU_BOUND = Limits.DEFAULTS.withHold(EmulatedHold.cpu(2, "bench.holdCpu"));

	@Test
	void aGridWithoutDatabaseCpuHasNoContentionSection() {
		TopologyGrid grid = TopologyGrid.of("single", Limits.DEFAULTS, List.of(cell(2, 400, 400, 21, 18, 24)),
				OBJECTIVE_MS);

		assertThat(Contention.of(grid, OptionalInt.of(2))).isEmpty();
	}

	@Test
	void theLargestPoolIsComparedWithThePoolNearestTheDatabasesCoresInP50P99AndThroughput() {
		Contention contention = Contention.of(issue35(), OptionalInt.of(2)).orElseThrow();

		Table table = contention.table();
		assertThat(table.rows()).hasSize(5);
		assertThat(table.rows().get(1).entries()).extracting(Table.Entry::text)
			.containsExactly("2", "2", "400", "5.3", "21 [18–24]", "400", "2.00", "0.80", "–", "–");
		assertThat(table.notes()).anySatisfy((note) -> assertThat(note).isEqualTo(
				"At 400 rps the largest pool, 32 (32 connection(s)), against pool 2 (2 connection(s), nearest the database's "
						+ "2 cores): p50 15 vs 5.3 ms (+186 %), p99 60 [53–68] vs 21 [18–24] ms (+186 %), "
						+ "throughput 400 vs 400 ok/s (+0 %); measurably worse in p99."));
	}

	@Test
	void ratesFromTheMeasuredCeilingSayHowTheyWereDerived() {
		CpuCeiling ceiling = new CpuCeiling(400, 4, 2, 2.0, 2.0);
		Contention contention = Contention.of(issue35(), OptionalInt.of(2), Optional.of(ceiling)).orElseThrow();

		assertThat(contention.table().notes())
			.contains("The rates are 0.35 and 0.45 of what the database's CPU carried "
					+ "here before the grid (ContentionRates): the database's CPU carries 400 rps here: the service's "
					+ "transaction with 2 ms of CPU, back to back on 4 connections, 2.00 ms of the database's CPU each on "
					+ "2.00 cores.");
		assertThat(Contention.of(issue35(), OptionalInt.of(2)).orElseThrow().table().notes())
			.noneMatch((note) -> note.startsWith("The rates are"));
	}

	@Test
	void withoutTheDatabasesCoresThereIsNoVerdictAndTheCpuIsNotMeasuredWhereItWasNotRead() {
		TopologyGrid grid = TopologyGrid.of("single", CPU_BOUND,
				List.of(cell(2, 400, 400, 21, 18, 24).toBuilder().databaseCpuCores(null).build(),
						cell(32, 400, 400, 60, 53, 68)),
				OBJECTIVE_MS);

		Contention contention = Contention.of(grid, OptionalInt.empty()).orElseThrow();

		assertThat(contention.verdict()).isEmpty();
		assertThat(contention.table().rows().get(0).entries().get(6).text()).isEqualTo("not measured");
	}

	@Test
	void theUslThroughAThroughputThatFallsPastTheCoresHasAPeakBetweenThem() {
		// The throughputs of a database with lambda 250/s, alpha 0.05 and beta 0.02 (N*
		// 6.9), offered 900 rps it never reaches: beta's interval excludes 0, and 16 and
		// 32
		// connections delivered measurably less than 8.
		TopologyGrid grid = TopologyGrid.of("single", CPU_BOUND,
				List.of(cell(1, 900, 250, 900, 800, 1000), cell(2, 900, 459, 400, 350, 450),
						cell(4, 900, 719, 200, 180, 220), cell(8, 900, 810, 150, 130, 170),
						cell(16, 900, 611, 300, 270, 330), cell(32, 900, 357, 900, 800, 1000)),
				OBJECTIVE_MS);

		Contention contention = Contention.of(grid, OptionalInt.of(2)).orElseThrow();

		assertThat(contention.peakConnections()).hasValueSatisfying((peak) -> assertThat(peak).isBetween(1.0, 8.0));
		assertThat(contention.svg("usl-single")).hasValueSatisfying(
				(svg) -> assertThat(svg).contains("class=\"peak\"", "class=\"measured\"", "class=\"model\""));
	}

	/**
	 * A fresh-clone contention run of 476de77: one instance at 400 rps carried the rate
	 * at every pool from 2 to 64 (an open model's throughput follows the rate sent), and
	 * the fit through it put N* at 7. No larger pool delivered measurably less, so no N*
	 * is claimed.
	 */
	@Test
	void aFitThroughAThroughputThatFollowsTheRateSentClaimsNoPeak() {
		TopologyGrid grid = TopologyGrid.of("single", CPU_BOUND, List.of(cell(2, 400, 401, 14, 12, 14),
				cell(4, 400, 400, 14, 12, 16), cell(16, 400, 399, 20, 16, 24), cell(64, 400, 397, 21, 17, 25)),
				OBJECTIVE_MS);

		Contention contention = Contention.of(grid, OptionalInt.of(2)).orElseThrow();

		assertThat(contention.throughputFell()).isFalse();
		assertThat(contention.peakConnections()).isEmpty();
		assertThat(contention.peak())
			.isEqualTo("none: no contention measured (no larger pool delivered measurably less than the best)");
	}

	private static TopologyGrid issue35() {
		return TopologyGrid.of("single", CPU_BOUND,
				List.of(cell(1, 400, 399, 2029, 1890, 2160), cell(2, 400, 400, 21, 18, 24),
						cell(4, 400, 400, 42, 37, 48), cell(8, 400, 398, 104, 93, 117), cell(32, 400, 400, 60, 53, 68)),
				OBJECTIVE_MS);
	}

	/** A window in which the database used 2 ms of CPU per request sent. */
	private static Point cell(int poolSize, int rateRps, double achievedRps, double p99Ms, double lowMs,
			double highMs) {
		Point point = RecommenderTests.point("single", poolSize, rateRps, achievedRps, 0, p99Ms);
		return DecisionTests.withInterval(point, lowMs, highMs)
			.toBuilder()
			.limits(CPU_BOUND)
			.databaseCpuCores(achievedRps * 2 / 1000)
			.build();
	}

}
