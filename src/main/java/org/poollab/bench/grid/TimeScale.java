package org.poollab.bench.grid;

import java.time.Duration;
import java.util.List;

/**
 * Slow motion: the team's question run at its rates ÷ {@code factor}, with every time
 * constant (the hold's mean and p99, {@code connection-timeout}) × {@code factor}. The
 * pool's queue depends on rate × hold and on how holds and arrivals vary, not on the rate
 * itself, while the box's CPU depends on the rate: in Erlang C the probability of waiting
 * and the busy connections stay, and every wait scales by exactly {@code factor}. What is
 * not scaled is each request's own work (its statement, its HTTP round trip), so a
 * latency maps back to the team's time as {@code overhead + (lab − overhead) ÷ factor}.
 * Only the deploy and load edges speak lab units; grids, points and decisions speak the
 * team's.
 *
 * @param factor k, 1 for none
 * @param overheadMs the per-request time slow motion does not stretch: the client's mean
 * latency less the measured hold at a low rate, measured at k = 1; 0 when unknown
 */
public record TimeScale(int factor, double overheadMs) {

	/** The team's question as asked. */
	public static final TimeScale NONE = new TimeScale(1, 0);

	/** The factors {@code bench.timeScale=auto} chooses from, smallest first. */
	/**
	 * The share of a deployment's measured capacity ({@code load/CapacityProbe}) the
	 * grid's highest rate may use at the time scale chosen. The probe's steps are a
	 * factor of two apart, so the capacity is a rate the box held with the next step up
	 * failed or untried: at half of it, every grid rate stays a full step below the
	 * highest the box held, which leaves room for what the probe does not send, the
	 * bursts of Poisson arrivals and of a pool queueing at its knee, and keeps JMeter,
	 * the instances and the database out of each other's way on a 2-core box.
	 */
	public static final double SAFE_SHARE = 0.5;

	public static final List<Integer> SERIES = List.of(1, 2, 4, 8);

	/**
	 * Samples a measured window should hold: a p99 then rests on at least 10 samples
	 * beyond it, as it does at k = 1 for the grids the presets run.
	 */
	static final int MIN_SAMPLES = 1000;

	public TimeScale {
		if (factor < 1) {
			throw new IllegalArgumentException("a time scale is a whole number of 1 or more, not " + factor);
		}
		if (!(overheadMs >= 0) || Double.isInfinite(overheadMs)) {
			throw new IllegalArgumentException("an overhead is a finite number of 0 ms or more, not " + overheadMs);
		}
	}

	/** A factor with no overhead measured yet. */
	public static TimeScale of(int factor) {
		return new TimeScale(factor, 0);
	}

	/**
	 * The rate the lab sends for a team's rate: fractional where k does not divide it.
	 */
	public double labRateRps(int teamRateRps) {
		return (double) teamRateRps / this.factor;
	}

	/** A team's time constant (a hold, a timeout) as the lab runs it. */
	public double labMs(double teamMs) {
		return teamMs * this.factor;
	}

	/**
	 * A latency the lab measured, in the team's time: the overhead stays, the rest (the
	 * hold and any wait for a connection, both stretched) shrinks by k. A figure below
	 * the overhead stays as it is (nothing in it was stretched), and so does a negative
	 * "not measured" figure.
	 */
	public double teamMs(double labMs) {
		if (labMs < this.overheadMs) {
			return labMs;
		}
		return this.overheadMs + (labMs - this.overheadMs) / this.factor;
	}

	/**
	 * A measured window as the lab runs it: the team's length, unless the lab rate would
	 * send fewer than {@link #MIN_SAMPLES} in it, then long enough for them, but never
	 * more than k times the team's (what k = 1 would have sent). Whole seconds, as
	 * JMeter's schedule counts them.
	 */
	public Duration labWindow(Duration teamWindow, int teamRateRps) {
		if (!slowed()) {
			return teamWindow;
		}
		long neededSeconds = (long) Math.ceil(MIN_SAMPLES / labRateRps(teamRateRps));
		Duration needed = Duration.ofSeconds(neededSeconds);
		Duration longest = teamWindow.multipliedBy(this.factor);
		Duration window = (needed.compareTo(longest) > 0) ? longest : needed;
		return (window.compareTo(teamWindow) > 0) ? window : teamWindow;
	}

	/** Whether the lab runs slower than the team's time. */
	public boolean slowed() {
		return this.factor > 1;
	}

}
