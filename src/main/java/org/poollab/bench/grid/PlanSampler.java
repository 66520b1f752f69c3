package org.poollab.bench.grid;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import org.w3c.dom.Element;

import org.poollab.bench.lab.BenchSettingException;

/**
 * One HTTP Request sampler ({@code HTTPSamplerProxy}) of a team's plan, read as the
 * request it becomes: its method, its path with the query its arguments make (GET and
 * DELETE), its body (a raw body, or the form its arguments make for POST and PUT) and the
 * Content-Type its Header Managers set. Its server name, port and protocol are the lab's
 * targets' here, and its other settings (timeouts, redirects, embedded resources,
 * implementation) the lab plan's.
 *
 * @param name what the plan calls it
 * @param method GET, POST, PUT or DELETE
 * @param path from the leading {@code /}, with its query
 * @param body null for none
 * @param contentType what its Header Managers say, or a form's; null when unsaid
 * @param share how often it runs per iteration of its thread group
 * @param servers the server names and ports it names, which the lab's targets replace
 * @param otherHeaders the headers its Header Managers set besides Content-Type, which the
 * lab's plan does not send
 */
record PlanSampler(String name, String method, String path, @Nullable String body, @Nullable String contentType,
		double share, List<String> servers, List<String> otherHeaders) {

	private static final String FORM = "application/x-www-form-urlencoded";

	private static final String CONTENT_TYPE = "Content-Type";

	PlanSampler {
		servers = List.copyOf(servers);
		otherHeaders = List.copyOf(otherHeaders);
	}

	/**
	 * The request one sampler sends.
	 * @param headerManagers the enabled Header Managers in its scope, outermost first,
	 * its own last
	 * @param share how often it runs per iteration of its thread group
	 * @param written {@code bench.requests} as written, for refusals
	 * @throws BenchSettingException for what the lab cannot send, naming the sampler
	 */
	static PlanSampler read(PlanElement sampler, List<PlanElement> headerManagers, double share,
			PlanVariables variables, String written) {
		Reader reader = new Reader(sampler, variables, written);
		String method = reader.method();
		List<String> servers = new ArrayList<>();
		String pathWritten = reader.resolved("path", sampler.property("HTTPSampler.path")).strip();
		String path = reader.path(pathWritten, servers);
		if (!sampler.collection("HTTPsampler.Files", "HTTPFileArgs.files")
			.stream()
			.allMatch((file) -> PlanElement.property(file, "File.path").isBlank())) {
			throw reader.refusal("uploads files, which the lab does not send: give a raw body instead");
		}
		List<Element> arguments = sampler.collection("HTTPsampler.Arguments", "Arguments.arguments");
		boolean withBody = method.equals("POST") || method.equals("PUT");
		String body = null;
		boolean form = false;
		if (sampler.bool("HTTPSampler.postBodyRaw")) {
			body = reader.resolved("body",
					arguments.stream()
						.map((argument) -> PlanElement.property(argument, "Argument.value"))
						.collect(Collectors.joining()));
			if (body.isEmpty()) {
				body = null;
			}
			else if (!withBody) {
				throw reader.refusal("sends a body with %s; a body goes with POST or PUT".formatted(method));
			}
		}
		else if (!arguments.isEmpty()) {
			if (withBody && sampler.bool("HTTPSampler.DO_MULTIPART_POST")) {
				throw reader.refusal("sends multipart/form-data, which the lab does not send: give a raw body instead");
			}
			String query = reader.query(arguments);
			if (withBody) {
				body = query.isEmpty() ? null : query;
				form = true;
			}
			else if (!query.isEmpty() && !wholeUrl(pathWritten)) {
				// JMeter sends a URL written whole in the path as written, without them.
				path = path + (path.contains("?") ? "&" : "?") + query;
			}
		}
		if (path.chars().anyMatch(Character::isWhitespace)) {
			throw reader.refusal("has a space in its path %s: write it URL-encoded (%%20)".formatted(path));
		}
		String contentType = (body == null) ? null : reader.contentType(headerManagers).orElse(form ? FORM : null);
		List<String> otherHeaders = headerManagers.stream()
			.flatMap((manager) -> manager.collection("HeaderManager.headers").stream())
			.map((header) -> PlanElement.property(header, "Header.name").strip())
			.filter((header) -> !header.equalsIgnoreCase(CONTENT_TYPE))
			.toList();
		return new PlanSampler(sampler.name(), method, path, body, contentType, share, servers, otherHeaders);
	}

	/** Whether a path is a URL written whole, {@code http://host/path}. */
	private static boolean wholeUrl(String path) {
		String lower = path.toLowerCase(Locale.ROOT);
		return lower.startsWith("http://") || lower.startsWith("https://");
	}

	/** Reads one sampler's properties, resolving the variables the lab knows. */
	private record Reader(PlanElement sampler, PlanVariables variables, String written) {

		String method() {
			String method = resolved("method", this.sampler.property("HTTPSampler.method")).strip()
				.toUpperCase(Locale.ROOT);
			if (method.isEmpty()) {
				// JMeter's default.
				return "GET";
			}
			if (!Requests.METHODS.contains(method)) {
				throw refusal("sends %s, which is not a method the lab sends (%s)".formatted(method,
						Requests.METHODS.stream().sorted().collect(Collectors.joining(", "))));
			}
			return method;
		}

		/**
		 * The path from its leading {@code /}: a URL written whole in the path loses its
		 * server, and a path without its slash gets one, as JMeter gives it.
		 */
		String path(String path, List<String> servers) {
			String domain = this.sampler.property("HTTPSampler.domain").strip();
			if (!domain.isEmpty()) {
				String port = this.sampler.property("HTTPSampler.port").strip();
				servers.add(port.isEmpty() ? domain : domain + ":" + port);
			}
			if (wholeUrl(path)) {
				int host = path.indexOf("//") + 2;
				int slash = path.indexOf('/', host);
				servers.add(path.substring(host, (slash < 0) ? path.length() : slash));
				return (slash < 0) ? "/" : path.substring(slash);
			}
			return path.startsWith("/") ? path : "/" + path;
		}

		/**
		 * The arguments as JMeter writes them into a query string or a form body: name,
		 * {@code =} unless the plan says not to, value, URL-encoded where the plan says
		 * so; an argument without a name left out.
		 */
		String query(List<Element> arguments) {
			List<String> pairs = new ArrayList<>();
			for (Element argument : arguments) {
				String key = resolved("arguments", PlanElement.property(argument, "Argument.name"));
				if (key.isEmpty()) {
					continue;
				}
				String value = resolved("arguments", PlanElement.property(argument, "Argument.value"));
				String equals = PlanElement.property(argument, "HTTPArgument.use_equals").strip().equals("false")
						&& value.isEmpty() ? "" : "=";
				boolean encode = PlanElement.property(argument, "HTTPArgument.always_encode").strip().equals("true");
				pairs.add(encode ? URLEncoder.encode(key, StandardCharsets.UTF_8) + equals
						+ URLEncoder.encode(value, StandardCharsets.UTF_8) : key + equals + value);
			}
			return String.join("&", pairs);
		}

		/** The Content-Type the innermost Header Manager that sets one sets. */
		Optional<String> contentType(List<PlanElement> headerManagers) {
			String found = null;
			for (PlanElement manager : headerManagers) {
				for (Element header : manager.collection("HeaderManager.headers")) {
					if (PlanElement.property(header, "Header.name").strip().equalsIgnoreCase(CONTENT_TYPE)) {
						found = PlanElement.property(header, "Header.value");
					}
				}
			}
			return Optional.ofNullable(found).map((type) -> resolved("Content-Type header", type).strip());
		}

		String resolved(String where, String text) {
			PlanVariables.Resolved resolved = this.variables.resolve(text);
			if (!resolved.unresolved().isEmpty()) {
				throw TeamPlan.unresolved(this.written, "its HTTP sampler '" + this.sampler.name() + "'", where,
						resolved.unresolved().get(0));
			}
			return resolved.text();
		}

		BenchSettingException refusal(String why) {
			return TeamPlan.refusal(this.written, "its HTTP sampler '" + this.sampler.name() + "' " + why);
		}

	}

}
