package org.poollab.bench.settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

import org.poollab.bench.deploy.ResizeCredential;

/**
 * A bad {@code -Dbench.*} setting, said plainly: the setting, the value as written and
 * what is allowed, or, for a setting the lab does not know (a misspelling), the closest
 * one it does. {@link BenchBinder} binds the settings before the sweep starts anything
 * and says every refusal these lines give.
 */
public final class BenchSettingRefusals {

	private BenchSettingRefusals() {
	}

	/**
	 * What is wrong with the {@code bench.*} settings, one line per bad setting, when
	 * binding them is what failed.
	 * @param failure why the lab's context did not start
	 * @param environment where the settings came from, to quote them as written
	 * @return the lines, or empty when the failure is not a bad setting
	 */
	public static Optional<String> explain(Throwable failure, @Nullable Environment environment) {
		BindException cause = bindFailure(failure);
		if (cause == null || !cause.getName().toString().startsWith("bench")) {
			return Optional.empty();
		}
		List<String> problems = new ArrayList<>();
		if (cause.getCause() instanceof UnboundConfigurationPropertiesException unknown) {
			unknown.getUnboundProperties().stream().sorted().forEach((property) -> problems.add(unknown(property)));
		}
		else if (cause.getCause() instanceof BindValidationException validation) {
			for (ObjectError error : validation.getValidationErrors()) {
				if (error instanceof FieldError field) {
					Object written = asWritten(environment, field.getField()).orElse(field.getRejectedValue());
					// One element of a longer list: say which.
					String which = String.valueOf(written).equals(String.valueOf(field.getRejectedValue())) ? null
							: element(field.getField(), field.getRejectedValue());
					problems.add(describe(field.getField(), written, which));
				}
			}
		}
		else {
			ConfigurationProperty property = cause.getProperty();
			String name = (property != null) ? property.getName().toString() : cause.getName().toString();
			String field = name.substring(name.indexOf('.') + 1);
			problems.add(describe(field,
					asWritten(environment, field).orElse((property != null) ? property.getValue() : null)));
		}
		return problems.isEmpty() ? Optional.empty() : Optional.of(String.join(System.lineSeparator(), problems));
	}

	/**
	 * The value as the user wrote it ({@code 0s}, {@code 5,,10}), not as it was bound
	 * ({@code PT0S}, a list): the first property source that has the setting, in any of
	 * the spellings Spring Boot binds ({@code bench.poolSizes}, {@code bench.pool-sizes},
	 * {@code BENCH_POOLSIZES}).
	 */
	private static Optional<Object> asWritten(@Nullable Environment environment, String field) {
		if (!(environment instanceof ConfigurableEnvironment configurable)) {
			return Optional.empty();
		}
		String wanted = SettingNames.uniform("bench." + field.replaceAll("\\[.*", ""));
		for (PropertySource<?> source : configurable.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					if (SettingNames.uniform(name).equals(wanted)) {
						return Optional.ofNullable(enumerable.getProperty(name));
					}
				}
			}
		}
		return Optional.empty();
	}

	/** Which element of a list was refused, e.g. "element 2 is empty". */
	private static @Nullable String element(String field, @Nullable Object rejected) {
		Matcher index = Pattern.compile("\\[(\\d+)]$").matcher(field);
		if (!index.find()) {
			return null;
		}
		int position = Integer.parseInt(index.group(1)) + 1;
		return (rejected == null || rejected.toString().isEmpty()) ? "element %d is empty".formatted(position)
				: "element %d is %s".formatted(position, (rejected instanceof java.time.Duration duration)
						? (duration.toNanos() / 1e6) + "ms" : rejected);
	}

	/**
	 * A {@code bench.*} property the lab does not know, e.g. a misspelt one, which would
	 * otherwise be ignored without a word.
	 */
	static String unknown(ConfigurationProperty property) {
		String written = (property.getOrigin() instanceof PropertySourceOrigin origin) ? origin.getPropertyName()
				: property.getName().toString();
		return unknown(written, property.getValue());
	}

	private static String unknown(String written, @Nullable Object value) {
		if (SettingNames.uniform(written).equals(SettingNames.uniform(ResizeCredential.PROPERTY))) {
			// Never echoed: the value is a credential.
			return "%s is not allowed as a setting: the resize endpoint's token must not be on a command line (any user of the machine can read it there, and Maven prints it). Set the environment variable %s instead. Nothing was started."
				.formatted(ResizeCredential.PROPERTY, ResizeCredential.ENVIRONMENT_VARIABLE);
		}
		String suggestion = SettingNames.closest(written, knownNames())
			.map((name) -> "did you mean " + name + "?")
			.orElse("use one of " + String.join(", ", knownNames()) + ".");
		return "%s=%s is not a setting of the lab: %s".formatted(written, value, suggestion);
	}

	/**
	 * Every {@code bench.*} property in the environment that the lab does not know, one
	 * line each, from any source ({@code -Dbench.*}, {@code --bench.*}, environment
	 * variables, {@code bench.yml}): each group of {@link BenchProperties} binds only the
	 * names it has and leaves the rest, so this is where a misspelt one is caught.
	 * @param environment the lab's environment
	 * @return the lines, or empty when every {@code bench.*} property is known
	 */
	public static Optional<String> unknownSettings(ConfigurableEnvironment environment) {
		List<String> known = knownNames().stream().map(SettingNames::uniform).toList();
		Map<String, String> problems = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					String uniform = SettingNames.uniform(name.replaceAll("\\[[^]]*]", ""));
					if (uniform.startsWith("bench.") && !known.contains(uniform)) {
						problems.putIfAbsent(uniform, unknown(name, enumerable.getProperty(name)));
					}
				}
			}
		}
		return problems.isEmpty() ? Optional.empty()
				: Optional.of(String.join(System.lineSeparator(), problems.values()));
	}

	/** Every setting the lab binds ({@link BenchSetting}). */
	static List<String> knownNames() {
		return BenchSetting.properties();
	}

	private static @Nullable BindException bindFailure(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof BindException bind) {
				return bind;
			}
		}
		return null;
	}

	static String describe(String field, @Nullable Object value) {
		return describe(field, value, null);
	}

	private static String describe(String field, @Nullable Object value, @Nullable String which) {
		return BenchSetting.ofField(field)
			.orElseThrow(() -> new IllegalStateException("bench." + field + " has no BenchSetting"))
			.refusal(value, which);
	}

}
