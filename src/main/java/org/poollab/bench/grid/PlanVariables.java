package org.poollab.bench.grid;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JMeter variables of a plan that the lab can know without running it: those of its
 * User Defined Variables (the Test Plan's own, then every enabled {@code Arguments}
 * element, in the plan's order, a later one replacing an earlier one, as JMeter reads
 * them at the start) whose values are plain text or refer only to such variables. A
 * variable a CSV data set, an extractor or a script sets, and a JMeter function
 * ({@code ${__P(host,)}}), exist only while the plan runs: they stay unresolved.
 *
 * @param values each variable's value, empty when it is defined but not plain
 */
record PlanVariables(Map<String, Optional<String>> values) {

	PlanVariables {
		values = Map.copyOf(values);
	}

	/**
	 * The variables defined, in the plan's order.
	 * @param defined name and value as written, e.g. {@code basePath} and
	 * {@code /api/${version}}
	 */
	static PlanVariables of(List<Map.Entry<String, String>> defined) {
		Map<String, Optional<String>> values = new LinkedHashMap<>();
		for (Map.Entry<String, String> variable : defined) {
			Resolved value = new PlanVariables(values).resolve(variable.getValue());
			values.put(variable.getKey(), value.unresolved().isEmpty() ? Optional.of(value.text()) : Optional.empty());
		}
		return new PlanVariables(values);
	}

	/**
	 * Text with every reference the lab knows replaced by its value.
	 * @param text e.g. {@code /owners?lastName=${lastName}}
	 */
	Resolved resolve(String text) {
		StringBuilder resolved = new StringBuilder();
		List<String> unresolved = new ArrayList<>();
		int at = 0;
		while (at < text.length()) {
			int start = text.indexOf("${", at);
			int end = (start < 0) ? -1 : closing(text, start);
			if (end < 0) {
				// No reference left, or an unclosed one, which JMeter sends as written
				// too.
				resolved.append(text, at, text.length());
				break;
			}
			resolved.append(text, at, start);
			String reference = text.substring(start, end + 1);
			Optional<String> value = this.values.getOrDefault(text.substring(start + 2, end), Optional.empty());
			if (value.isPresent()) {
				resolved.append(value.get());
			}
			else {
				unresolved.add(reference);
				resolved.append(reference);
			}
			at = end + 1;
		}
		return new Resolved(resolved.toString(), unresolved);
	}

	/**
	 * The index of the brace closing the reference at {@code start}, nested ones skipped.
	 */
	private static int closing(String text, int start) {
		int depth = 0;
		for (int i = start; i < text.length(); i++) {
			if (text.startsWith("${", i)) {
				depth++;
				i++;
			}
			else if (text.charAt(i) == '}' && --depth == 0) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Text with the variables the lab knows replaced.
	 *
	 * @param text the result
	 * @param unresolved the references left as written, e.g. {@code ${id}}, in order
	 */
	record Resolved(String text, List<String> unresolved) {

		Resolved {
			unresolved = List.copyOf(unresolved);
		}

	}

}
