package org.poollab.bench.settings;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Setting names compared the way Spring Boot binds them ({@code bench.poolSizes},
 * {@code bench.pool-sizes} and {@code BENCH_POOLSIZES} are one setting), and the known
 * name closest to a misspelt one.
 */
public final class SettingNames {

	private SettingNames() {
	}

	/** The form in which two spellings of one setting are equal. */
	public static String uniform(String name) {
		return name.toLowerCase(Locale.ROOT).replace('_', '.').replace("-", "");
	}

	/**
	 * The known name with the fewest single-character edits (insert, delete, replace)
	 * from {@code written}, if a third of its length after the prefix or fewer (at least
	 * 2), so that a typo gets a suggestion and an unrelated name does not.
	 */
	static Optional<String> closest(String written, List<String> known) {
		String typed = uniform(written);
		int limit = Math.max(3, typed.substring(typed.indexOf('.') + 1).length() / 3);
		return known.stream()
			.filter((name) -> distance(typed, uniform(name)) <= limit)
			.min(Comparator.comparingInt((String name) -> distance(typed, uniform(name))));
	}

	/** Levenshtein distance, by the usual two-row dynamic programme. */
	static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int replace = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(replace, Math.min(previous[j] + 1, current[j - 1] + 1));
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
