package org.poollab.bench.grid;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;

/**
 * A team's own requests ({@code bench.requests}), each with a weight: every arrival of
 * the open-model schedule sends one of them, drawn by weight, through
 * {@code jmeter/requests.jmx}. Written as a list, or read from the team's own JMeter plan
 * ({@code plan:FILE}, {@link TeamPlan}): its HTTP samplers become the list, and the lab's
 * schedule replaces its thread groups and timers. The lab's plan, not the team's, sends
 * them either way: the schedule starts a thread per arrival that sends exactly one
 * request, which a plan's own thread groups, timers and loops would contradict.
 *
 * @param list the requests, in the order written
 * @param contentType the Content-Type of the bodies when the plan says one, else the lab
 * plan's default ({@code application/json})
 * @param fromPlan for a plan, what was taken from it and what was left out, in a line for
 * the console; empty for a written list
 */
public record Requests(List<Request> list, Optional<String> contentType, Optional<String> fromPlan) {

	/** What {@code bench.requests} accepts, for messages and the options page. */
	public static final String ALLOWED = "comma-separated requests, each METHOD /path, optionally @file (the body) and ; weight (1 to 1000, default 1), e.g. GET /owners?lastName= ; 3, GET /vets ; 1, POST /owners @owner.json; or plan:FILE, the enabled HTTP samplers of your JMeter plan, e.g. plan:jmeter/owners.jmx";

	/**
	 * The methods JMeter's Java HTTP implementation sends, which the lab's plans use for
	 * its JVM-wide keep-alive (it cannot send PATCH). A body goes with POST and PUT.
	 */
	static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE");

	private static final Set<String> WITH_BODY = Set.of("POST", "PUT");

	private static final int MAX_WEIGHT = 1000;

	/** The plan that sends them. */
	public static final String PLAN = "requests.jmx";

	public Requests {
		list = List.copyOf(list);
	}

	/** A written list: its bodies go out as {@code application/json}. */
	public Requests(List<Request> list) {
		this(list, Optional.empty(), Optional.empty());
	}

	/**
	 * One request.
	 *
	 * @param method e.g. {@code GET}
	 * @param path from the leading {@code /}, with its query
	 * @param weight how often it is drawn, relative to the others
	 * @param body what a {@code POST} or {@code PUT} sends, read from its file; null for
	 * none
	 */
	public record Request(String method, String path, int weight, @Nullable String body) {

		/** E.g. {@code GET /vets}. */
		public String label() {
			return this.method + " " + this.path;
		}

	}

	/**
	 * The written list, checked, the body files read; or the plan {@code plan:FILE}
	 * names, read ({@link TeamPlan}).
	 * @param written one element per request, as {@code bench.requests} binds them
	 * @param directory where relative body files and plans are found (the working
	 * directory)
	 * @throws BenchSettingException naming the request and what is allowed
	 */
	public static Requests parse(List<String> written, Path directory) {
		if (written.isEmpty()) {
			throw refusal(String.join(",", written), "it names no request");
		}
		if (written.stream().anyMatch((one) -> one.strip().startsWith(TeamPlan.PREFIX))) {
			if (written.size() > 1) {
				throw TeamPlan.refusal(String.join(",", written),
						"a plan is the whole of bench.requests, not one request among others (and its path holds no comma)");
			}
			return TeamPlan.read(written.get(0).strip(), directory);
		}
		List<Request> requests = new ArrayList<>();
		for (String one : written) {
			requests.add(request(one.strip(), directory));
		}
		return new Requests(requests);
	}

	private static Request request(String written, Path directory) {
		int semicolon = written.lastIndexOf(';');
		String head = ((semicolon >= 0) ? written.substring(0, semicolon) : written).strip();
		int weight = 1;
		if (semicolon >= 0) {
			String text = written.substring(semicolon + 1).strip();
			try {
				weight = Integer.parseInt(text);
			}
			catch (NumberFormatException ex) {
				weight = 0;
			}
			if (weight < 1 || weight > MAX_WEIGHT) {
				throw refusal(written, "its weight " + text + " is not a whole number from 1 to " + MAX_WEIGHT);
			}
		}
		String[] words = head.isEmpty() ? new String[0] : head.split("\\s+");
		if (words.length < 2 || words.length > 3) {
			throw refusal(written, "write METHOD /path, optionally @file and ; weight");
		}
		String method = words[0];
		if (!METHODS.contains(method)) {
			throw refusal(written, "%s is not a method the lab sends (%s)".formatted(method,
					METHODS.stream().sorted().collect(Collectors.joining(", "))));
		}
		String path = words[1];
		if (!path.startsWith("/")) {
			throw refusal(written, "the path " + path + " does not start with /");
		}
		String body = null;
		if (words.length == 3) {
			if (!words[2].startsWith("@") || words[2].length() == 1) {
				throw refusal(written, words[2] + " is not a body file (write @file)");
			}
			if (!WITH_BODY.contains(method)) {
				throw refusal(written, "a body goes with POST or PUT, not " + method);
			}
			Path file = directory.resolve(words[2].substring(1)).toAbsolutePath().normalize();
			if (!Files.isRegularFile(file)) {
				throw refusal(written, "the body file " + file + " does not exist");
			}
			try {
				body = Files.readString(file);
			}
			catch (IOException ex) {
				throw refusal(written, "the body file " + file + " cannot be read (" + ex.getMessage() + ")");
			}
		}
		return new Request(method, path, weight, body);
	}

	private static BenchSettingException refusal(String written, String why) {
		return new BenchSettingException(
				"bench.requests=%s is not allowed: %s. Use %s. Nothing was started.".formatted(written, why, ALLOWED));
	}

	/**
	 * E.g. {@code GET /owners?lastName= x3, GET /vets x1}, for the console and report.
	 */
	public String label() {
		return this.list.stream()
			.map((request) -> request.label() + ((request.body() != null) ? " (with a body)" : "") + " x"
					+ request.weight())
			.collect(Collectors.joining(", "));
	}

	/** The requests that change nothing on the target, which the pre-flight may send. */
	public List<Request> gets() {
		return this.list.stream().filter((request) -> request.method().equals("GET")).toList();
	}

	/**
	 * The plan's properties: {@code requests}, one line per request
	 * ({@code METHOD weight bodyIndex path}, bodyIndex 0 for none), and each body as
	 * {@code body<i>}, and {@code contentType} when a plan says one. Properties, not
	 * files: in distributed mode the plan runs on remote engines, which get the
	 * properties, not the lab's files.
	 */
	public Map<String, String> properties() {
		Map<String, String> properties = new LinkedHashMap<>();
		List<String> lines = new ArrayList<>();
		int bodies = 0;
		for (Request request : this.list) {
			int index = 0;
			if (request.body() != null) {
				index = ++bodies;
				properties.put("body" + index, request.body());
			}
			lines.add(String.format(Locale.ROOT, "%s %d %d %s", request.method(), request.weight(), index,
					request.path()));
		}
		properties.put("requests", String.join("\n", lines));
		this.contentType.ifPresent((type) -> properties.put("contentType", type));
		return properties;
	}

}
