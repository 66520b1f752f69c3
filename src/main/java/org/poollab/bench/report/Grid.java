package org.poollab.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import org.poollab.bench.SweepResults;
import org.poollab.bench.SweepResults.Limits;
import org.poollab.bench.SweepResults.Point;

/**
 * The points of one topology arranged as the paper's grid: pool sizes down, rates across.
 * Points whose outcome is not {@code ok} never enter a cell; they are kept apart so the
 * report can list them. A sweep over Tomcat thread counts has one grid per topology and
 * thread count.
 *
 * @param topology the topology name
 * @param limits what each instance was limited to (CPUs, heap, Tomcat threads)
 * @param cells one cell per measured (pool size, rate), repeats folded together
 * @param excluded points left out because their outcome was not {@code ok}
 */
record Grid(String topology, Limits limits, List<Cell> cells, List<Point> excluded) {

	/**
	 * One grid per topology and limits, in the order they first ran.
	 */
	static List<Grid> of(SweepResults results) {
		Map<List<Object>, List<Point>> byDeployment = results.points()
			.stream()
			.collect(Collectors.groupingBy((point) -> List.<Object>of(point.topology(), point.limits()),
					LinkedHashMap::new, Collectors.toList()));
		List<Grid> grids = new ArrayList<>();
		byDeployment.forEach((key, points) -> grids
			.add(of(points.get(0).topology(), points.get(0).limits(), points, results.p99ObjectiveMs())));
		return grids;
	}

	static Grid of(String topology, Limits limits, List<Point> points, double p99ObjectiveMs) {
		Map<List<Integer>, List<Point>> byCell = points.stream()
			.filter(Point::ok)
			.collect(Collectors.groupingBy((point) -> List.of(point.poolSize(), point.rateRps()), LinkedHashMap::new,
					Collectors.toList()));
		List<Cell> cells = byCell.values()
			.stream()
			.map((repeats) -> Cell.of(repeats, p99ObjectiveMs))
			.sorted(Cell.byPoolThenRate())
			.toList();
		List<Point> excluded = points.stream().filter((point) -> !point.ok()).toList();
		return new Grid(topology, limits, cells, excluded);
	}

	/**
	 * The topology, with the Tomcat thread count when the sweep varied it, e.g.
	 * {@code single} or {@code single (20 Tomcat threads)}.
	 */
	String name() {
		return this.topology
				+ ((this.limits.tomcatThreads() > 0) ? " (" + this.limits.tomcatThreads() + " Tomcat threads)" : "");
	}

	/** {@link #name()} for element ids and file names, e.g. {@code single-tomcat20}. */
	String key() {
		return this.topology + ((this.limits.tomcatThreads() > 0) ? "-tomcat" + this.limits.tomcatThreads() : "");
	}

	int[] poolSizes() {
		return Cell.distinct(this.cells, Cell::poolSize);
	}

	int[] ratesRps() {
		return Cell.distinct(this.cells, Cell::rateRps);
	}

	Optional<Cell> cell(int poolSize, int rateRps) {
		return this.cells.stream()
			.filter((cell) -> cell.poolSize() == poolSize && cell.rateRps() == rateRps)
			.findFirst();
	}

	/** Whether the swept pool was pgbouncer's (the pgbouncer topology). */
	boolean behindPgBouncer() {
		return this.cells.stream().anyMatch((cell) -> cell.pgbouncer() != null);
	}

	boolean hasRepeats() {
		return this.cells.stream().anyMatch((cell) -> cell.repeats().size() > 1);
	}

	/** Instances behind the load balancer; the same for every point of a topology. */
	int instances() {
		return this.cells.isEmpty() ? 1 : this.cells.get(0).instances();
	}

}
