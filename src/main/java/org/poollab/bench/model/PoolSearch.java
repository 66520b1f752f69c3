package org.poollab.bench.model;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntSupplier;

/**
 * The smallest pool size that meets an objective, measured rather than assumed: the
 * largest size first, then the model's guess and its neighbour (a good model makes that
 * the whole search), then bisection of what is left. Bisection relies on a smaller pool
 * never doing better than a larger one that meets the objective below it, which holds on
 * the small side of the knee. A larger pool can do worse (past the database's peak
 * concurrency, requests contend for its cores: the curve is U-shaped), so a largest size
 * that fails does not end the search: it looks below, at the model's guess and then at
 * halving sizes, for one that meets the objective and bisects below that. A budget of
 * probes bounds the time.
 */
public final class PoolSearch {

	private PoolSearch() {
	}

	/**
	 * One measured pool size.
	 *
	 * @param poolSize the size measured
	 * @param meets whether it met the objective
	 * @param detail what was measured, in words, for the search's path
	 */
	public record Probe(int poolSize, boolean meets, String detail) {
	}

	/**
	 * Measures one pool size.
	 */
	@FunctionalInterface
	public interface Measure {

		Probe at(int poolSize) throws IOException, InterruptedException;

	}

	/**
	 * Where the search went and what it found.
	 *
	 * @param path every probe, in order
	 * @param smallest the smallest size that met the objective, empty when the largest
	 * did not
	 * @param exact whether every smaller size is known to fail (else the probe budget ran
	 * out first and {@code smallest} is the smallest known to pass)
	 */
	public record Outcome(List<Probe> path, OptionalInt smallest, boolean exact) {
	}

	/**
	 * @param lowest the smallest size worth measuring (1, or a deadlock floor)
	 * @param highest the largest allowed (the budget's share)
	 * @param seed the model's guess, clamped into the range; asked after the largest size
	 * was measured, so a model may use what it measured
	 * @param maxProbes the most sizes to measure, at least 1
	 */
	public static Outcome search(int lowest, int highest, IntSupplier seed, int maxProbes, Measure measure)
			throws IOException, InterruptedException {
		if (lowest < 1 || highest < lowest || maxProbes < 1) {
			throw new IllegalArgumentException("a search needs 1 <= lowest <= highest and a probe, not %d, %d, %d"
				.formatted(lowest, highest, maxProbes));
		}
		List<Probe> path = new ArrayList<>();
		Probe top = measure.at(highest);
		path.add(top);
		if (top.meets()) {
			return below(lowest, highest, seed, maxProbes, measure, path);
		}
		// Past the knee, perhaps: a smaller size may meet what the largest did not.
		List<Integer> downwards = new ArrayList<>();
		downwards.add(Math.max(lowest, Math.min(seed.getAsInt(), highest - 1)));
		for (int size = highest / 2; size >= lowest; size /= 2) {
			downwards.add(size);
			if (size == lowest) {
				break;
			}
		}
		downwards.add(lowest);
		for (int size : downwards.stream().distinct().filter((size) -> size < highest).toList()) {
			if (path.size() >= maxProbes) {
				return new Outcome(path, OptionalInt.empty(), false);
			}
			Probe probe = measure.at(size);
			path.add(probe);
			if (probe.meets()) {
				return below(lowest, size, seed, maxProbes, measure, path);
			}
		}
		// Every size tried failed; one between two of them might not, when a single
		// size holds the objective.
		return new Outcome(path, OptionalInt.empty(), highest - lowest + 1 == path.size());
	}

	/**
	 * Where a search goes on when the confirmation of its answer refuted it: the smallest
	 * larger size that met the objective in the search, which {@link #below} then narrows
	 * from above the refuted size. Empty when no larger size met it: the answer was found
	 * below a largest size that failed (past the knee), and with the answer refuted no
	 * size measured meets the objective. The largest size is never the fallback, because
	 * it was measured and failed.
	 * @param refuted the answer its confirmation refuted
	 * @param searched the search's probes
	 */
	public static OptionalInt passingAbove(int refuted, List<Probe> searched) {
		return searched.stream()
			.filter((probe) -> probe.meets() && probe.poolSize() > refuted)
			.mapToInt(Probe::poolSize)
			.min();
	}

	/**
	 * The search below a size known to meet the objective (the largest, measured; or the
	 * next one up from an answer its confirmation refuted).
	 * @param passing a size known to meet it
	 * @param path the probes so far, added to
	 */
	public static Outcome below(int lowest, int passing, IntSupplier seed, int maxProbes, Measure measure,
			List<Probe> path) throws IOException, InterruptedException {
		// Invariant: 'passes' meets the objective, every size below 'low' fails.
		int low = lowest;
		int passes = passing;
		int first = path.size();
		List<Integer> guesses = new ArrayList<>(List.of(Math.max(lowest, Math.min(seed.getAsInt(), passing - 1))));
		while (low < passes) {
			if (path.size() >= maxProbes) {
				return new Outcome(path, OptionalInt.of(passes), false);
			}
			int next = guesses.isEmpty() ? low + (passes - low) / 2 : guesses.remove(0);
			if (next < low || next >= passes) {
				continue;
			}
			Probe probe = measure.at(next);
			path.add(probe);
			if (probe.meets()) {
				passes = next;
				if (path.size() == first + 1) {
					guesses.add(next - 1); // the model's guess held: is one less enough?
				}
			}
			else {
				low = next + 1;
				if (path.size() == first + 1) {
					guesses.add(next + 1); // the guess fell short: is one more enough?
				}
			}
		}
		return new Outcome(path, OptionalInt.of(passes), true);
	}

}
