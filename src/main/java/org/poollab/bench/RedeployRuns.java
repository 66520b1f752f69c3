package org.poollab.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.stream.Collectors;

import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.Point;

/**
 * A deployment redeployed at each pool size ({@code bench.resizeCommand}) restarts its
 * instances. The lab resizes while the load runs, so inside one JMeter schedule the
 * restart's outage would fall into the next point's window: each pool size gets a run of
 * its own instead, resized before it starts and warmed up like the first point of any
 * run.
 */
final class RedeployRuns {

	private RedeployRuns() {
	}

	/** One JMeter run of points, under its id. */
	@FunctionalInterface
	interface OneRun {

		LoadRun.Result measure(List<Planned> points, String runId) throws IOException, InterruptedException;

	}

	/**
	 * @param redeploys whether a resize restarts the instances
	 * @return the points measured, in order; those after a run that stopped early left
	 * over
	 */
	static LoadRun.Result measure(List<Planned> points, String runId, boolean redeploys, OneRun run)
			throws IOException, InterruptedException {
		List<List<Planned>> runs = runs(points, redeploys);
		List<Point> measured = new ArrayList<>();
		for (int i = 0; i < runs.size(); i++) {
			String id = (runs.size() > 1) ? runId + "-pool" + runs.get(i).get(0).poolSize() : runId;
			LoadRun.Result result = run.measure(runs.get(i), id);
			measured.addAll(result.measured());
			if (!result.leftover().isEmpty()) {
				List<Planned> leftover = new ArrayList<>(result.leftover());
				runs.subList(i + 1, runs.size()).forEach(leftover::addAll);
				return new LoadRun.Result(measured, leftover);
			}
		}
		return new LoadRun.Result(measured, List.of());
	}

	/** The runs: one, or with redeploys one per pool size, in the points' order. */
	static List<List<Planned>> runs(List<Planned> points, boolean redeploys) {
		if (!redeploys) {
			return List.of(points);
		}
		return List.copyOf(points.stream()
			.collect(Collectors.groupingBy(Planned::poolSize, LinkedHashMap::new, Collectors.toList()))
			.values());
	}

}
