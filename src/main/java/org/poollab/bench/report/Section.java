package org.poollab.bench.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.IntStream;

import org.poollab.bench.deciding.Cell;
import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.deciding.DatabaseHost;
import org.poollab.bench.deciding.Answers;
import org.poollab.bench.deciding.Recommendation;
import org.poollab.bench.deciding.WrittenPool;
import org.poollab.bench.deciding.TopologyGrid;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.Settling;
import org.poollab.bench.results.SweepResults;

/**
 * One topology's part of the report: its grid, what the rule made of it, and the tables
 * both reports show.
 *
 * @param grid the topology's measured grid
 * @param recommendation what the rule made of it
 * @param maxLatency the paper's max-latency table
 * @param p99Latency the paper's p99 table
 * @param detail everything measured per cell, in tables narrow enough to read
 * @param crossChecks the textbook estimates
 * @param excluded points left out
 * @param confirmed the topology's confirmation runs (a refuted pool's first, the answer's
 * last); empty when none ran
 * @param settling the adaptive effort spent on its decision, when there was any
 * @param contention both sides of the knee, where requests cost the database CPU
 * @param written the {@code maximum-pool-size} the rule decided to write
 */
record Section(TopologyGrid grid, Recommendation recommendation, Table maxLatency, Table p99Latency, List<Table> detail,
		Table crossChecks, Table excluded, List<Confirmed> confirmed, Optional<Settling> settling,
		Optional<Contention> contention, WrittenPool written) {

	/** Said wherever figures rest on more than one repeat. */
	static final String REPEATS_NOTE = "Points ran more than once: every figure is the median across the "
			+ "repeats that ran to the end, except errors, connection timeouts and refusals, which are summed, and "
			+ "a dead instance, which marks the cell (one failing repeat is enough to say a pool size did not "
			+ "sustain its rate).";

	/** The section of the answers' {@code index}-th topology. */
	static Section of(Answers answers, int index, Path runDir, AcquireBuckets buckets) {
		SweepResults results = answers.results();
		TopologyGrid grid = answers.grids().get(index);
		Recommendation recommendation = answers.recommendations().get(index);
		WrittenPool written = answers.written().get(index);
		List<Confirmed> confirmed = Confirmed.all(results, grid.key());
		Optional<Settling> settling = settling(results, grid.key());
		OptionalInt databaseCores = databaseCores(results, grid);
		Optional<Contention> contention = Contention.of(grid, databaseCores,
				Optional.ofNullable(results.databaseOf(grid.limits()).cpuCeiling()));
		List<Table> detail = new java.util.ArrayList<>(
				withHoldModel(Tables.detail(grid, recommendation, runDir, buckets), grid));
		contention.map(Contention::table).ifPresent(detail::add);
		return new Section(grid, recommendation,
				Tables.latencyGrid(grid, recommendation, "Max latency (ms)", (cell) -> cell.latency().maxMs()),
				Tables.latencyGrid(grid, recommendation, p99Caption(grid), (cell) -> cell.latency().p99Ms(),
						(cell) -> cell.latency().p99Interval()),
				List.copyOf(detail), CrossChecksTable.of(recommendation, grid.behindPgBouncer()), Tables.excluded(grid),
				confirmed, settling, contention, written);
	}

	private static List<Table> withHoldModel(List<Table> detail, TopologyGrid grid) {
		List<Table> all = new java.util.ArrayList<>(detail);
		HoldModelTable.of(grid).ifPresent(all::add);
		return List.copyOf(all);
	}

	/** Says what the brackets are, where there are any (older results have none). */
	private static String p99Caption(TopologyGrid grid) {
		return grid.cells().stream().anyMatch((cell) -> cell.latency().p99Interval().isPresent())
				? "p99 latency (ms), with its 95 % interval in brackets (a bootstrap of the window's requests in "
						+ "blocks of 0.5 s)"
				: "p99 latency (ms)";
	}

	private static Optional<Settling> settling(SweepResults results, String topology) {
		return (results.timing() == null) ? Optional.empty()
				: results.timing().settling().stream().filter((one) -> one.topology().equals(topology)).findFirst();
	}

	/**
	 * The cores of the database's machine: the lab's own, where the database ran on it
	 * (the embedded one, or one on loopback).
	 */
	private static OptionalInt databaseCores(SweepResults results, TopologyGrid grid) {
		DatabaseFacts database = results.databaseOf(grid.limits());
		return (results.host() != null && database != null && DatabaseHost.of(database).sameHost())
				? OptionalInt.of(results.host().cpuCores()) : OptionalInt.empty();
	}

	String title() {
		TopologyGrid grid = this.grid;
		String loadBalancer = grid.cells().isEmpty() ? "" : grid.cells().get(0).loadBalancer();
		String pgbouncer = grid.cells()
			.stream()
			.map(Cell::pgbouncer)
			.filter(Objects::nonNull)
			.findFirst()
			.map((figures) -> ", through pgbouncer (transaction pooling; pool = pgbouncer's pool size; each instance's "
					+ "HikariCP pool " + figures.clientPoolSize() + ")")
			.orElse("");
		return "Topology " + grid.topology() + ": " + grid.instances() + " instance"
				+ ((grid.instances() == 1) ? "" : "s")
				+ ("none".equals(loadBalancer) || loadBalancer.isEmpty() ? "" : " behind " + loadBalancer) + pgbouncer
				+ " (" + grid.limits().describe() + ")";
	}

	/** Every topology's section, drawn from the rule's answers. */
	static List<Section> all(Answers answers, Path runDir) {
		AcquireBuckets buckets = AcquireBuckets.ofService();
		return IntStream.range(0, answers.grids().size()).mapToObj((i) -> of(answers, i, runDir, buckets)).toList();
	}

}
