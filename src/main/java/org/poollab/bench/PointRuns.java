package org.poollab.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.load.LoadRun;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;

/**
 * JMeter runs of planned points on a deployment, at the time scale of their
 * {@link LoadRun}: each run said on the console before it starts, checked when it ends
 * (the lab's database still up, the target the right one) and its points reported with
 * the time it took. A topology's grid, its adaptive effort and the SLO search's probes
 * all run their points through it.
 */
final class PointRuns {

	private final SweepContext sweep;

	private final LoadRun load;

	PointRuns(SweepContext sweep, LoadRun load) {
		this.sweep = sweep;
		this.load = load;
	}

	/**
	 * Says what a run will do, runs it, and reports its points with the time it took;
	 * where a resize redeploys the fleet, one run per pool size ({@link RedeployRuns}).
	 * Points run while the lab's database was gone are not reported: they measured its
	 * absence.
	 * @param report gets the points each run measured and the nanoseconds it took
	 */
	LoadRun.Result measure(List<Planned> points, Deployment deployment, Path loadDirectory, String runId,
			BiConsumer<List<Point>, Long> report) throws IOException, InterruptedException {
		return RedeployRuns.measure(points, runId,
				this.sweep.preFlight().external().flatMap(ExternalTarget::resizeCommand).isPresent(),
				(run, id) -> measureOneRun(run, deployment, loadDirectory, id, report));
	}

	private LoadRun.Result measureOneRun(List<Planned> points, Deployment deployment, Path loadDirectory, String runId,
			BiConsumer<List<Point>, Long> report) throws IOException, InterruptedException {
		List<LoadRun.Segment> segments = this.load.segments(points, deployment.poolSize());
		this.sweep.out()
			.printf("  %s: %d point(s) in one JMeter schedule of %s...%n", runId, points.size(),
					Durations.human(segments.get(segments.size() - 1).end()));
		long started = System.nanoTime();
		LoadRun.Result result = this.load.measure(points, deployment, loadDirectory, runId, this.sweep.processes());
		if (this.sweep.database().exit().isPresent()) {
			throw new LabFailureException("%s ran %d point(s) while the database was gone or going; they are not kept"
				.formatted(runId, result.measured().size()));
		}
		Optional<String> wrong = WrongTarget.first(result.measured(), this.sweep.preFlight().load(this.sweep.grid()));
		if (wrong.isPresent()) {
			throw new LabFailureException(wrong.get());
		}
		report.accept(result.measured(), System.nanoTime() - started);
		return result;
	}

}
