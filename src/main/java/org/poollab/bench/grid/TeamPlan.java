package org.poollab.bench.grid;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import org.poollab.bench.lab.BenchSettingException;

/**
 * A team's own JMeter plan as its requests ({@code bench.requests=plan:FILE}): each
 * enabled HTTP Request sampler of its thread groups becomes one entry of the weighted
 * list ({@link Requests}), which the lab's plan sends under the lab's open-model
 * schedule, arrivals and targets. What decides when and where a plan sends (thread
 * groups, timers, controllers' logic, server names and ports) is the lab's here: it is
 * left out and said so. What only exists while a plan runs (a variable a CSV data set or
 * an extractor sets, a JMeter function) cannot become a fixed request: refused, naming
 * the sampler and the variable.
 * <p>
 * Weights: a sampler counts once per iteration of its thread group, times the percent of
 * every Throughput Controller in percent mode above it (their per-mille, reduced).
 */
final class TeamPlan {

	/** How {@code bench.requests} names a plan. */
	static final String PREFIX = "plan:";

	/** What a plan must be, for messages and the options page. */
	static final String ALLOWED = "plan:FILE, a JMeter plan (.jmx) with at least one enabled HTTP Request sampler in a thread group, each GET, POST, PUT or DELETE, its ${variables} User Defined Variables of plain values, e.g. plan:jmeter/owners.jmx";

	/** What a body goes out as when the plan does not say (the lab's plan's default). */
	static final String DEFAULT_CONTENT_TYPE = "application/json";

	private static final int PER_MILLE = 1000;

	private static final String THROUGHPUT = "ThroughputController";

	private final String written;

	private final Path file;

	private final PlanVariables variables;

	private final List<PlanSampler> taken = new ArrayList<>();

	private final Map<String, Set<String>> ignored = new LinkedHashMap<>();

	private boolean percents;

	private TeamPlan(String written, Path file, PlanVariables variables) {
		this.written = written;
		this.file = file;
		this.variables = variables;
	}

	/**
	 * The plan's requests, checked.
	 * @param written {@code plan:FILE} as {@code bench.requests} has it
	 * @param directory where a relative FILE is found (the working directory)
	 * @throws BenchSettingException naming the setting, the value and what is allowed
	 */
	static Requests read(String written, Path directory) {
		String name = written.substring(PREFIX.length()).strip();
		if (name.isEmpty()) {
			throw refusal(written, "it names no file");
		}
		Path file = directory.resolve(name).toAbsolutePath().normalize();
		if (!Files.isRegularFile(file)) {
			throw refusal(written, "the file " + file + " does not exist");
		}
		Element root;
		try {
			root = PlanElement.rootOf(file);
		}
		catch (SAXParseException ex) {
			throw refusal(written, "%s is not a JMeter plan: not XML (line %d: %s)".formatted(file, ex.getLineNumber(),
					oneLine(ex.getMessage())));
		}
		catch (SAXException ex) {
			throw refusal(written, "%s is not a JMeter plan: not XML (%s)".formatted(file, oneLine(ex.getMessage())));
		}
		catch (IOException ex) {
			throw refusal(written, "the file " + file + " cannot be read (" + oneLine(ex.getMessage()) + ")");
		}
		if (!root.getTagName().equals(PlanElement.ROOT)) {
			throw refusal(written, "%s is not a JMeter plan: its root element is <%s>, not <%s>".formatted(file,
					root.getTagName(), PlanElement.ROOT));
		}
		List<PlanElement> top = PlanElement.topOf(root);
		TeamPlan plan = new TeamPlan(written, file, variablesOf(top));
		plan.walk(top, Scope.PLAN);
		return plan.requests();
	}

	static BenchSettingException refusal(String written, String why) {
		return new BenchSettingException(
				"bench.requests=%s is not allowed: %s. Use %s. Nothing was started.".formatted(written, why, ALLOWED));
	}

	/** The Test Plan's User Defined Variables, then every enabled Arguments element's. */
	private static PlanVariables variablesOf(List<PlanElement> top) {
		List<Map.Entry<String, String>> defined = new ArrayList<>();
		for (PlanElement element : top) {
			if (element.kind().equals("TestPlan")) {
				element.collection("TestPlan.user_defined_variables", "Arguments.arguments")
					.forEach((argument) -> defined.add(argument(argument)));
			}
		}
		collectArguments(top, defined);
		return PlanVariables.of(defined);
	}

	private static void collectArguments(List<PlanElement> level, List<Map.Entry<String, String>> defined) {
		for (PlanElement element : level) {
			if (!element.enabled()) {
				continue;
			}
			if (element.kind().equals("Arguments")) {
				element.collection("Arguments.arguments").forEach((argument) -> defined.add(argument(argument)));
			}
			collectArguments(element.children(), defined);
		}
	}

	private static Map.Entry<String, String> argument(Element argument) {
		return Map.entry(PlanElement.property(argument, "Argument.name"),
				PlanElement.property(argument, "Argument.value"));
	}

	/**
	 * Takes the samplers of one level of the plan and notes what it ignores. The Header
	 * Managers of a level apply to every sampler under it, as in JMeter.
	 */
	private void walk(List<PlanElement> level, Scope outer) {
		Scope scope = outer.with(level.stream()
			.filter((element) -> element.enabled() && element.kind().equals("HeaderManager"))
			.toList());
		for (PlanElement element : level) {
			if (!element.enabled()) {
				ignore("disabled elements", element);
				continue;
			}
			String kind = element.kind();
			if (kind.equals("TestPlan") || kind.equals("GenericController") || kind.equals("TransactionController")) {
				walk(element.children(), scope);
			}
			else if (kind.equals("SetupThreadGroup") || kind.equals("PostThreadGroup")) {
				ignore("setUp and tearDown thread groups, with their samplers", element);
			}
			else if (kind.endsWith("ThreadGroup")) {
				ignore("thread groups", element);
				walk(element.children(), scope.underThreadGroup());
			}
			else if (kind.equals("HTTPSamplerProxy")) {
				if (scope.inThreadGroup) {
					take(element, scope);
				}
				else {
					ignore("samplers outside a thread group", element);
				}
				walk(element.children(), scope);
			}
			else if (kind.equals(THROUGHPUT) && element.property("ThroughputController.style").strip().equals("1")) {
				walk(element.children(), scope.times(percent(element) / 100));
			}
			else if (kind.equals("TestFragmentController")) {
				ignore("test fragments, with their samplers", element);
			}
			else if (kind.equals("HeaderManager") || kind.equals("Arguments")) {
				// Read: the Content-Type of the bodies, and the variables.
				continue;
			}
			else {
				String category = category(kind);
				ignore(category, element);
				walk(element.children(), scope);
			}
		}
	}

	/** What the lab leaves out of the plan, by the element's class. */
	private static String category(String kind) {
		if (kind.endsWith("Timer")) {
			return "timers";
		}
		if (kind.endsWith("Assertion")) {
			return "assertions";
		}
		if (kind.equals("ResultCollector") || kind.endsWith("Listener") || kind.endsWith("Visualizer")
				|| kind.equals("Summariser")) {
			return "listeners";
		}
		if (kind.endsWith("PreProcessor") || kind.endsWith("PostProcessor") || kind.endsWith("Extractor")
				|| kind.endsWith("Modifier")) {
			return "pre- and post-processors";
		}
		if (kind.endsWith("Controller") || kind.endsWith("Control") || kind.equals("RunTime")) {
			return "controllers' logic, their samplers counted once per iteration";
		}
		if (kind.endsWith("Sampler") || kind.equals("TestAction")) {
			return "samplers other than HTTP Request";
		}
		if (kind.equals("ConfigTestElement") || kind.endsWith("Manager") || kind.endsWith("Config")
				|| kind.endsWith("DataSet")) {
			return "config elements";
		}
		return "other elements";
	}

	private double percent(PlanElement controller) {
		String percentWritten = controller.property("ThroughputController.percentThroughput");
		PlanVariables.Resolved resolved = this.variables.resolve(percentWritten);
		if (!resolved.unresolved().isEmpty()) {
			throw unresolved(this.written, "its Throughput Controller '%s'".formatted(controller.name()), "percent",
					resolved.unresolved().get(0));
		}
		double percent;
		try {
			percent = Double.parseDouble(resolved.text().strip());
		}
		catch (NumberFormatException ex) {
			percent = Double.NaN;
		}
		if (!(percent >= 0 && percent <= 100)) {
			throw refusal(this.written,
					"its Throughput Controller '%s' runs its samplers in %s percent of iterations, not a number from 0 to 100"
						.formatted(controller.name(), percentWritten));
		}
		this.percents = true;
		return percent;
	}

	/** One HTTP Request sampler, as the entry of the list it becomes. */
	private void take(PlanElement sampler, Scope scope) {
		List<PlanElement> headerManagers = scope
			.with(sampler.children()
				.stream()
				.filter((element) -> element.enabled() && element.kind().equals("HeaderManager"))
				.toList())
			.headerManagers();
		PlanSampler taken = PlanSampler.read(sampler, headerManagers, scope.share(), this.variables, this.written);
		taken.servers().forEach((server) -> ignore("server names and ports", server));
		taken.otherHeaders().forEach((header) -> ignore("headers other than Content-Type", header));
		this.taken.add(taken);
	}

	/**
	 * A variable the lab cannot resolve, refused.
	 * @param element e.g. {@code its HTTP sampler 'Find owners'}
	 * @param where e.g. {@code path}
	 * @param reference e.g. {@code ${lastName}}
	 */
	static BenchSettingException unresolved(String written, String element, String where, String reference) {
		return refusal(written,
				"%s uses %s in its %s, which the lab cannot resolve without running the plan (it resolves User Defined Variables of plain values only): write the value, or define it there"
					.formatted(element, reference, where));
	}

	private void ignore(String category, PlanElement element) {
		ignore(category, element.name().isBlank() ? element.kind() : element.name());
	}

	private void ignore(String category, String what) {
		this.ignored.computeIfAbsent(category, (key) -> new LinkedHashSet<>()).add(what);
	}

	/** The list, its weights and what the console says about the plan. */
	private Requests requests() {
		List<PlanSampler> sent = new ArrayList<>();
		for (PlanSampler sampler : this.taken) {
			if (sampler.share() > 0) {
				sent.add(sampler);
			}
			else {
				ignore("samplers a Throughput Controller runs in 0 percent of iterations", sampler.name());
			}
		}
		if (sent.isEmpty()) {
			String disabled = this.ignored.containsKey("disabled elements")
					? " (disabled: " + names(this.ignored.get("disabled elements")) + ")" : "";
			throw refusal(this.written, "%s has no enabled HTTP Request sampler in a thread group%s"
				.formatted(this.file, this.taken.isEmpty() ? disabled : " that runs"));
		}
		Map<String, String> types = new LinkedHashMap<>();
		sent.stream()
			.filter((sampler) -> sampler.body() != null)
			.forEach((sampler) -> types
				.putIfAbsent(Objects.requireNonNullElse(sampler.contentType(), DEFAULT_CONTENT_TYPE), sampler.name()));
		if (types.size() > 1) {
			throw refusal(this.written,
					"its bodies go out with different Content-Types (%s), and the lab's plan sends one for all: give the samplers with a body one Content-Type"
						.formatted(types.entrySet()
							.stream()
							.map((type) -> "'" + type.getValue() + "' " + type.getKey())
							.collect(Collectors.joining(", "))));
		}
		List<Long> perMille = sent.stream()
			.map((sampler) -> Math.max(1, Math.round(sampler.share() * PER_MILLE)))
			.toList();
		long divisor = perMille.stream().map(BigInteger::valueOf).reduce(BigInteger.ZERO, BigInteger::gcd).longValue();
		List<Requests.Request> list = new ArrayList<>();
		for (int i = 0; i < sent.size(); i++) {
			PlanSampler sampler = sent.get(i);
			list.add(new Requests.Request(sampler.method(), sampler.path(), (int) (perMille.get(i) / divisor),
					sampler.body()));
		}
		Optional<String> contentType = types.keySet().stream().findFirst();
		return new Requests(list, contentType, Optional.of(account(sent, list, contentType)));
	}

	/** What was taken from the plan and what was left out, in a line. */
	private String account(List<PlanSampler> sent, List<Requests.Request> list, Optional<String> contentType) {
		List<String> requests = new ArrayList<>();
		for (int i = 0; i < sent.size(); i++) {
			Requests.Request request = list.get(i);
			requests.add("'%s' %s%s x%d".formatted(sent.get(i).name(), request.label(),
					(request.body() != null) ? " (with a body)" : "", request.weight()));
		}
		String weights = this.percents ? "weighted by their Throughput Controllers' percents"
				: "equal weights (no Throughput Controller in percent mode)";
		String bodies = contentType.map((type) -> "; bodies sent as " + type).orElse("");
		String left = this.ignored.isEmpty() ? "nothing"
				: this.ignored.entrySet()
					.stream()
					.map((category) -> category.getKey() + " (" + names(category.getValue()) + ")")
					.collect(Collectors.joining("; "));
		return "bench.requests=%s: from %s, %d HTTP sampler(s), each an entry of the list: %s, %s%s. Left out, the lab's open-model schedule, arrivals and targets in their place: %s."
			.formatted(this.written, this.file, sent.size(), String.join(", ", requests), weights, bodies, left);
	}

	private static String names(Set<String> names) {
		List<String> all = List.copyOf(names);
		String shown = all.stream().limit(3).map((name) -> "'" + name + "'").collect(Collectors.joining(", "));
		return (all.size() > 3) ? shown + " and " + (all.size() - 3) + " more" : shown;
	}

	private static String oneLine(@Nullable String message) {
		return String.valueOf(message).replaceAll("\\s+", " ").strip();
	}

	/**
	 * Where a sampler sits.
	 *
	 * @param inThreadGroup whether under a thread group, which alone runs samplers
	 * @param share how often it runs per iteration of its thread group (Throughput
	 * Controllers' percents multiplied)
	 * @param headerManagers the Header Managers that apply, outermost first
	 */
	private record Scope(boolean inThreadGroup, double share, List<PlanElement> headerManagers) {

		static final Scope PLAN = new Scope(false, 1, List.of());

		Scope with(List<PlanElement> inner) {
			List<PlanElement> managers = new ArrayList<>(this.headerManagers);
			managers.addAll(inner);
			return new Scope(this.inThreadGroup, this.share, managers);
		}

		Scope underThreadGroup() {
			return new Scope(true, this.share, this.headerManagers);
		}

		Scope times(double fraction) {
			return new Scope(this.inThreadGroup, this.share * fraction, this.headerManagers);
		}

	}

}
