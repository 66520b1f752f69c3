package org.poollab.bench;

import java.io.IOException;
import java.util.List;

import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.grid.ContentionRates;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.TimeScaleSetting;
import org.poollab.bench.grid.Topology;
import org.poollab.bench.load.CapacityProbe;
import org.poollab.bench.load.SlowMotion;
import org.poollab.bench.results.Capacity;
import org.poollab.bench.results.EmulatedHold;

/**
 * What one deployment carries on this machine and the time scale its grid runs at: the
 * capacity probe before the grid ({@link CapacityProbe}) and the choice made from it
 * ({@link SlowMotion}), for {@link TopologyRun}.
 */
final class TopologyCapacity {

	private final SweepContext sweep;

	private final List<Planned> mine;

	private final Planned first;

	TopologyCapacity(SweepContext sweep, List<Planned> mine) {
		this.sweep = sweep;
		this.mine = mine;
		this.first = mine.get(0);
	}

	/**
	 * Whether the capacity probe runs before the grid. Not for a deployment the lab did
	 * not start (whatever it carries is the team's, and its hold is not the lab's to
	 * stretch), nor for load from remote engines (this box does not generate it), nor for
	 * a grid at or below {@link SlowMotion#PROBE_FLOOR_RPS}, nor for a grid without an
	 * emulated hold (the paper's and the blog's questions: nothing to stretch, and the
	 * box's limits are what they measure). A probed deployment starts as asked, and a
	 * slower k starts fresh instances.
	 */
	boolean probes() {
		int highest = this.mine.stream().mapToInt(Planned::rateRps).max().orElseThrow();
		return this.sweep.preFlight().external().isEmpty() && !this.sweep.jmeter().distributed()
				&& highest > SlowMotion.PROBE_FLOOR_RPS && this.sweep.grid().hold() != null;
	}

	/**
	 * What the warm deployment carries, measured once before its grid
	 * ({@link CapacityProbe}), and the time scale chosen from it ({@link SlowMotion}).
	 */
	SlowMotion.Choice probe(Deployment deployment, Capacities capacities) throws IOException, InterruptedException {
		int highest = this.mine.stream().mapToInt(Planned::rateRps).max().orElseThrow();
		EmulatedHold hold = this.sweep.grid().hold();
		String notScalable = (hold != null && hold.cpuMs() != null)
				? "a hold of database CPU cannot run in slow motion: the database's CPU is what is measured"
				: (hold == null || !hold.waits()) ? "no emulated hold to stretch" : null;
		Capacity capacity = new CapacityProbe(this.sweep.jmeter(), this.sweep.loadDirectory(), this.sweep.processes(),
				this.sweep.out())
			.measure(deployment, this.first.deploymentLabel(), highest, hold);
		TimeScaleSetting setting = this.sweep.properties().load().timeScaleSetting();
		SlowMotion.Choice choice = SlowMotion.choose(
				(setting instanceof TimeScaleSetting.Fixed fixed) ? fixed.k() : null, capacity, highest, notScalable);
		if (hold != null && hold.cpuMs() != null && this.first.topology() == Topology.MULTI) {
			// The contention question: its one instance runs on every box, its three
			// only where the box carries them, since database CPU cannot run slower.
			List<Integer> rates = this.mine.stream().map(Planned::rateRps).distinct().toList();
			ContentionRates.MultiRun multi = ContentionRates.multi(capacity.capacityRps(), rates);
			if (!multi.runs()) {
				choice = new SlowMotion.Choice(1, false, multi.notRun().orElseThrow());
			}
		}
		capacities.add(capacity.withTimeScale(choice.timeScale(), choice.why()), choice.runs());
		return choice;
	}

}
