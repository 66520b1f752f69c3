package org.poollab.bench.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * What one topology's deployment carried on this machine, measured before its grid by the
 * capacity probe ({@code load/CapacityProbe}), and the time scale the sweep then ran it
 * at. The pool's queue depends on rate x hold, the box's CPU on the rate: a topology
 * whose grid asks more than the box carries runs in slow motion (rates ÷ k, every time
 * constant x k), and its figures are mapped back to the team's time.
 *
 * @param topology the deployment's label
 * @param capacityRps the highest total rate the deployment held at its largest pool
 * (every step's three checks passed); {@code null} when not even the lowest step held
 * @param steps each rate tried, lowest first, up to the first that failed
 * @param overheadMs the part of a request that slow motion does not stretch (its own
 * statement and HTTP work): the client mean latency minus the measured hold at the lowest
 * step; 0 when not measured
 * @param timeScale the k the topology's grid ran at (1: as asked)
 * @param reason why that k, in one sentence
 */
public record Capacity(String topology, @Nullable Integer capacityRps, List<Step> steps, double overheadMs,
		int timeScale, String reason) {

	public Capacity {
		steps = (steps != null) ? List.copyOf(steps) : List.of();
		timeScale = Math.max(1, timeScale);
	}

	/**
	 * One rate of the probe.
	 *
	 * @param rateRps the total rate asked
	 * @param sentRps what JMeter sent in the window
	 * @param lateP99Ms JMeter's late starts, p99 (-1: not known)
	 * @param holdMeanMs the instances' measured hold mean; {@code null} when the grid has
	 * no waiting hold
	 * @param slowestP99Ms the slowest instance's own p99 ({@code http.server.requests});
	 * -1 when an instance gave no figures
	 * @param clientMeanMs JMeter's mean latency in the window
	 * @param failed why the step did not hold; empty when it held
	 */
	public record Step(int rateRps, double sentRps, double lateP99Ms, @Nullable Double holdMeanMs, double slowestP99Ms,
			double clientMeanMs, String failed) {

		public Step {
			failed = (failed != null) ? failed : "";
		}

		public boolean held() {
			return this.failed.isEmpty();
		}

	}

	/** The same capacity with the time scale the sweep chose and why. */
	public Capacity withTimeScale(int k, String why) {
		return new Capacity(this.topology, this.capacityRps, this.steps, this.overheadMs, k, why);
	}

	/**
	 * The console's and the report's line: each step, what held, and the unstretched part
	 * of a request; then the time scale chosen, once chosen.
	 */
	public String describe() {
		List<String> described = new ArrayList<>();
		for (Step step : this.steps) {
			described.add(String.format(Locale.ROOT, "%d rps %s", step.rateRps(),
					step.held() ? String.format(
							Locale.ROOT, "held (hold %s, instance p99 %.1f ms)", (step.holdMeanMs() != null)
									? String.format(Locale.ROOT, "%.1f ms", step.holdMeanMs()) : "-",
							step.slowestP99Ms()) : "not held: " + step.failed()));
		}
		String carried = (this.capacityRps != null) ? "carries " + this.capacityRps + " rps"
				: "did not carry even " + this.steps.get(0).rateRps() + " rps";
		return String.format(Locale.ROOT,
				"capacity of %s on this machine: %s (%s); unstretched part of a request %.1f ms%s", this.topology,
				carried, String.join("; ", described), this.overheadMs,
				this.reason.isEmpty() ? "" : ". " + this.reason);
	}

}
