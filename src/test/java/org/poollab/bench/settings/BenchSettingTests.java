package org.poollab.bench.settings;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.DefaultValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BenchSetting}, the home of each setting's facts, agrees with what
 * {@link BenchProperties} binds: one entry per property, the same literal defaults, and
 * the ranges and values its annotations and types allow.
 */
class BenchSettingTests {

	@Test
	void everyPropertyOfBenchPropertiesHasOneEntry() {
		assertThat(BenchSetting.properties())
			.containsExactlyInAnyOrderElementsOf(bound().stream().map(Bound::property).toList());
	}

	@Test
	void aDefaultWrittenInBenchPropertiesIsTheEntrysDefault() {
		assertThat(bound()).filteredOn((bound) -> bound.defaultValue() != null)
			.isNotEmpty()
			.allSatisfy((bound) -> assertThat(setting(bound).defaultValue()).as(bound.property())
				.isEqualTo(bound.defaultValue()));
	}

	/**
	 * {@code @Min}/{@code @Max} read "from min to max"; for {@code bench.instanceCpus}
	 * the lab checks the processors here, below its annotation's bound.
	 */
	@Test
	void aWholeNumbersRangeIsTheOneTheAnnotationsCheck() {
		List<Bound> ranged = bound().stream()
			.filter((bound) -> bound.annotated().isAnnotationPresent(Min.class))
			.filter((bound) -> setting(bound) != BenchSetting.INSTANCE_CPUS)
			.toList();
		assertThat(ranged).hasSizeGreaterThanOrEqualTo(10).allSatisfy((bound) -> {
			long min = bound.annotated().getAnnotation(Min.class).value();
			long max = bound.annotated().getAnnotation(Max.class).value();
			assertThat(setting(bound).allowed()).as(bound.property()).contains("from %d to %d".formatted(min, max));
		});
	}

	/**
	 * {@code @DurationMin}/{@code @DurationMax} read "from min" (or "above 0" for 1 ms)
	 * and "to max", in the units a user writes.
	 */
	@Test
	void aDurationsRangeIsTheOneTheAnnotationsCheck() {
		List<Bound> ranged = bound().stream()
			.filter((bound) -> bound.annotated().isAnnotationPresent(DurationMax.class))
			.toList();
		assertThat(ranged).hasSizeGreaterThan(8).allSatisfy((bound) -> {
			DurationMin least = bound.annotated().getAnnotation(DurationMin.class);
			DurationMax most = bound.annotated().getAnnotation(DurationMax.class);
			Duration min = Duration.ofDays(least.days())
				.plusHours(least.hours())
				.plusMinutes(least.minutes())
				.plusSeconds(least.seconds())
				.plusMillis(least.millis())
				.plusNanos(least.nanos());
			Duration max = Duration.ofDays(most.days())
				.plusHours(most.hours())
				.plusMinutes(most.minutes())
				.plusSeconds(most.seconds())
				.plusMillis(most.millis())
				.plusNanos(most.nanos());
			String allowed = setting(bound).allowed();
			assertThat(allowed).as(bound.property())
				.containsAnyOf(written(max).stream().map((way) -> "to " + way).toArray(String[]::new));
			if (min.equals(Duration.ofMillis(1))) {
				assertThat(allowed).as(bound.property()).containsAnyOf("above 0", "from 1ms");
			}
			else {
				assertThat(allowed).as(bound.property())
					.containsAnyOf(written(min).stream().map((way) -> "from " + way).toArray(String[]::new));
			}
		});
	}

	/** Every constant of an enum-typed setting, as a user writes it, is allowed. */
	@Test
	void everyValueOfAnEnumTypedSettingIsNamed() {
		List<Bound> enums = bound().stream().filter((bound) -> bound.type().isEnum()).toList();
		assertThat(enums).hasSizeGreaterThan(8).allSatisfy((bound) -> {
			List<String> values = Arrays.stream(bound.type().getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
				.toList();
			assertThat(setting(bound).allowed()).as(bound.property()).contains(values);
		});
	}

	@Test
	void aTrueOrFalseSettingSaysSo() {
		assertThat(bound()).filteredOn((bound) -> bound.type() == Boolean.class || bound.type() == boolean.class)
			.hasSizeGreaterThan(3)
			.allSatisfy(
					(bound) -> assertThat(setting(bound).allowed()).as(bound.property()).startsWith("true or false"));
	}

	@Test
	void aRefusalNamesTheSettingTheValueAsWrittenAndWhatIsAllowed() {
		assertThat(BenchSetting.RATES.refusal("500,,1000", "element 2 is empty")).isEqualTo(
				"bench.rates=500,,1000 is not allowed (element 2 is empty): use comma-separated whole numbers from 1 to 100000 (requests per second).");
		assertThat(BenchSetting.INSTANCE_CPUS.refusal(99, null))
			.endsWith("use a whole number from 1 to the number of processors here (%d)."
				.formatted(Runtime.getRuntime().availableProcessors()));
	}

	@Test
	void aFieldAsBoundFindsItsSetting() {
		assertThat(BenchSetting.ofField("poolSizes[1]")).contains(BenchSetting.POOL_SIZES);
		assertThat(BenchSetting.ofField("database.vendor[0]")).contains(BenchSetting.DATABASE_VENDOR);
		assertThat(BenchSetting.ofField("p99-objective")).contains(BenchSetting.P99_OBJECTIVE);
		assertThat(BenchSetting.ofField("poolSize")).isEmpty();
	}

	/**
	 * The ways a user writes a duration, largest unit first: {@code 1h}, {@code 60m};
	 * {@code 1m}, {@code 60s}; {@code 1ms}; {@code 0.1ms}; {@code 0}.
	 */
	private static List<String> written(Duration duration) {
		if (duration.isZero()) {
			return List.of("0");
		}
		List<String> ways = new ArrayList<>();
		if (duration.toNanosPart() == 0) {
			if (duration.toSecondsPart() == 0) {
				if (duration.toMinutesPart() == 0) {
					ways.add(duration.toHours() + "h");
				}
				ways.add(duration.toMinutes() + "m");
			}
			ways.add(duration.toSeconds() + "s");
		}
		double ms = duration.toNanos() / 1e6;
		ways.add(((ms == Math.rint(ms)) ? String.valueOf((long) ms) : String.valueOf(ms)) + "ms");
		return ways;
	}

	private static BenchSetting setting(Bound bound) {
		return BenchSetting.ofField(bound.property().substring("bench.".length())).orElseThrow();
	}

	/**
	 * One property as {@link BenchProperties} binds it.
	 *
	 * @param property e.g. {@code bench.database.vendor}
	 * @param defaultValue its {@code @DefaultValue}, or {@code null} for none or empty
	 * @param type its type, or a list's element type
	 * @param annotated where its constraints are: the accessor, or a list's element
	 */
	record Bound(String property, String defaultValue, Class<?> type, AnnotatedElement annotated) {

	}

	/**
	 * Every property, nested records' included, in the order they are declared: each
	 * group of {@link BenchProperties} binds from {@code bench.} itself, a record inside
	 * a group from {@code bench.} and its name ({@code bench.database.*}).
	 */
	static List<Bound> bound() {
		List<Bound> bound = new ArrayList<>();
		for (RecordComponent group : BenchProperties.class.getRecordComponents()) {
			add("bench.", group.getType(), bound);
		}
		return bound;
	}

	private static void add(String prefix, Class<?> record, List<Bound> bound) {
		RecordComponent[] components = record.getRecordComponents();
		Parameter[] parameters;
		try {
			parameters = record
				.getDeclaredConstructor(Arrays.stream(components).map(RecordComponent::getType).toArray(Class[]::new))
				.getParameters();
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
		for (int i = 0; i < components.length; i++) {
			RecordComponent component = components[i];
			if (component.getType().isRecord()) {
				add(prefix + component.getName() + ".", component.getType(), bound);
				continue;
			}
			DefaultValue declared = parameters[i].getAnnotation(DefaultValue.class);
			String defaultValue = (declared != null && declared.value().length > 0 && !declared.value()[0].isEmpty())
					? String.join(",", declared.value()) : null;
			AnnotatedType type = component.getAccessor().getAnnotatedReturnType();
			if (type instanceof AnnotatedParameterizedType list) {
				AnnotatedType element = list.getAnnotatedActualTypeArguments()[0];
				Class<?> elementType = (Class<?>) ((element.getType() instanceof ParameterizedType parameterized)
						? parameterized.getRawType() : element.getType());
				bound.add(new Bound(prefix + component.getName(), defaultValue, elementType, element));
			}
			else {
				bound.add(new Bound(prefix + component.getName(), defaultValue, component.getType(),
						component.getAccessor()));
			}
		}
	}

}
