package org.poollab.bench.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.io.FileSystemResource;

import org.poollab.bench.deciding.Confirmed;
import org.poollab.bench.deciding.Confirming;
import org.poollab.bench.deploy.Deployment;
import org.poollab.bench.deploy.Instance;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.results.Confirmation;
import org.poollab.bench.results.Point;
import org.poollab.bench.text.Durations;

/**
 * The recommended block run as a user pastes it: the topology started afresh with nothing
 * of {@code spring.datasource.hikari.*} but the block's file, each instance asked through
 * its actuator which settings its pool runs with, and Poisson ({@code random}) arrivals
 * at the rate the pool size was chosen at. The sweep itself ran with the service's own
 * timeouts (connection-timeout 2000 ms, validation-timeout 1000 ms) and resized pools at
 * run time; this is the only load the block as written gets.
 *
 * @param grid the sweep's grid (the warm-up before the window)
 * @param duration the measured window, {@code bench.confirmation}
 * @param jmeter the generator
 * @param out the console
 */
public record ConfirmationRun(Grid grid, Duration duration, JMeter jmeter, PrintStream out) {

	/**
	 * Where Spring Boot binds the pool's settings from: HikariCP's for the JDBC service,
	 * r2dbc-pool's for the reactive twin.
	 */
	static final List<String> PREFIXES = List.of("spring.datasource.hikari.", "spring.r2dbc.pool.");

	/**
	 * Starts a topology from a block file and warms it up through the given rates, for at
	 * most that long.
	 */
	@FunctionalInterface
	public interface Deployer {

		/**
		 * @param warmUpRates the team's rates
		 * @param scale slow motion, as the grid's points of the topology ran
		 */
		Deployment deploy(Planned point, Path hikariBlock, List<Integer> warmUpRates, Duration warmUpAtMost,
				TimeScale scale) throws IOException, InterruptedException;

	}

	/**
	 * Confirms one topology's block.
	 * @param block the block and where it was chosen
	 * @param point the topology's deployment as the sweep planned it, at the block's pool
	 * size and rate
	 * @param scale slow motion at the grid's k for the topology (its points say it): the
	 * block's wait for a connection stretched, the rate ÷ k, the window as the grid's
	 * were ({@link TimeScale#NONE} for none)
	 * @param deployer starts and warms the topology
	 * @param directory the run's directory: the block goes to
	 * {@code confirm/<topology>/application.yml}, the load to {@code load/}
	 * @param p99ObjectiveMs the objective the window is judged by
	 * ({@link Confirmed#verdict})
	 * @return what the run showed: the window, or the second one when the first was a
	 * cold tail
	 */
	public Confirmation run(Confirming block, Planned point, TimeScale scale, Deployer deployer, Path directory,
			ChildProcesses processes, double p99ObjectiveMs) throws IOException, InterruptedException {
		Path file = Files.createDirectories(directory.resolve("confirm").resolve(block.deployment()))
			.resolve("application.yml");
		Files.writeString(file, block.yaml(), StandardCharsets.UTF_8);
		Map<String, String> settings = settings(file);
		this.out.printf("Confirming %s: pool %d as pasted from %s, Poisson arrivals at %d rps for %s%s...%n",
				block.deployment(), block.poolSize(), file, block.rateRps(), Durations.human(this.duration),
				scale.slowed() ? ", in slow motion (k = " + scale.factor() + ", as the grid ran)" : "");
		// Warmed like the grid's deployments, up through the grid's rates to the rate
		// under test and held there until the instances' own p99 settles, so that the
		// window compares the block with the grid's cell and not with a JIT still at
		// work; but from a quarter of the rate, since these instances start cold with the
		// block's pool, not the sweep's largest. Warming for at most 30 s below the rate
		// (the first design) refuted every pool tried at 2000 rps on a 2-core box, pool
		// 10
		// as much as pool 1: the window measured the climb, not the pool
		// (src/site/markdown/measurements.md).
		List<Integer> warmUpRates = warmUpRates(this.grid.rates(), block.rateRps());
		try (Deployment deployment = deployer.deploy(point, file, warmUpRates, warmUpAtMost(this.grid), scale)) {
			List<String> mismatches = new ArrayList<>();
			Map<String, String> expected = stretched(settings, scale);
			for (Instance instance : deployment.instances()) {
				mismatches.addAll(mismatches(expected, instance.poolSettings(), instance.port()));
			}
			Grid poisson = this.grid.forConfirmation(this.duration);
			LoadRun load = new LoadRun(poisson, scale, this.jmeter, this.out);
			Path loadDirectory = Files.createDirectories(directory.resolve("load"));
			Point measured = load
				.measure(List.of(point), deployment, loadDirectory, "confirm-" + block.deployment(), processes)
				.measured()
				.get(0);
			Confirmation first = new Confirmation(block.deployment(), block.yaml(), settings, mismatches, measured,
					block.chosenAt(), null);
			if (Confirmed.verdict(first, p99ObjectiveMs) != Confirmed.Verdict.MEASURE_AGAIN) {
				return first;
			}
			// On the same instances, which the first window warmed: a cold tail is the
			// instances' start, and a pool too small for the rate fails the second window
			// as it failed the first.
			this.out.println("  " + Confirmed.measuringAgain(first));
			Point again = load
				.measure(List.of(point), deployment, loadDirectory, "confirm-" + block.deployment() + "-again",
						processes)
				.measured()
				.get(0);
			return first.measuredAgain(again);
		}
	}

	/**
	 * The rates a confirmation's fresh instances are warmed through: a quarter and a half
	 * of the rate under test, the grid's rates below it, then the rate itself.
	 * @param gridRates the sweep's rates
	 * @param rateRps the rate the block is confirmed at
	 * @return distinct rates, lowest first
	 */
	static List<Integer> warmUpRates(List<Integer> gridRates, int rateRps) {
		TreeSet<Integer> rates = new TreeSet<>();
		gridRates.stream().filter((rate) -> rate < rateRps).forEach(rates::add);
		rates.add(Math.max(1, rateRps / 4));
		rates.add(Math.max(1, rateRps / 2));
		rates.add(rateRps);
		return List.copyOf(rates);
	}

	/**
	 * The longest warm-up of a confirmation's fresh instances: twice the grid's. They
	 * start with the block's pool, possibly 1, not the largest the sweep measures, and
	 * climb from a quarter of the rate ({@link #warmUpRates}): three fresh instances with
	 * pool 1 at 400 rps (2 ms of database CPU a request, 2 cores) drowned within 15 s of
	 * the grid's own warm-up, and with pool 2 had not settled after 45 s, where the
	 * grid's warm instances held p99 41-46 ms at the same rate (the {@code contention}
	 * preset at 2 ms: src/site/markdown/measurements-archive.md, the confirmation's
	 * warm-up).
	 */
	static Duration warmUpAtMost(Grid grid) {
		return grid.topologyWarmup().multipliedBy(2);
	}

	/**
	 * The block's {@code spring.datasource.hikari.*} or {@code spring.r2dbc.pool.*}
	 * settings, flattened by Spring's own YAML loader (the one Spring Boot reads
	 * {@code application.yml} with).
	 * @return values by key without the prefix, e.g. {@code connection-timeout} to
	 * {@code 500}
	 */
	public static Map<String, String> settings(Path yaml) {
		YamlPropertiesFactoryBean factory = new YamlPropertiesFactoryBean();
		factory.setResources(new FileSystemResource(yaml));
		Properties properties = factory.getObject();
		Map<String, String> settings = new LinkedHashMap<>();
		if (properties != null) {
			// Values keep their YAML types (5 is an Integer), which Properties'
			// string-only views would skip.
			properties.keySet()
				.stream()
				.map(String::valueOf)
				.sorted()
				.forEach((key) -> PREFIXES.stream()
					.filter(key::startsWith)
					.findFirst()
					.ifPresent((prefix) -> settings.put(key.substring(prefix.length()),
							String.valueOf(properties.get(key)))));
		}
		return settings;
	}

	/**
	 * What an instance started from the block runs with in slow motion: the block, its
	 * wait for a connection ({@code connection-timeout}, {@code max-acquire-time}) × k,
	 * as the deploy edge starts it.
	 * @param block the block's settings, milliseconds for the waits
	 */
	static Map<String, String> stretched(Map<String, String> block, TimeScale scale) {
		if (!scale.slowed()) {
			return block;
		}
		Map<String, String> expected = new LinkedHashMap<>(block);
		for (String wait : List.of("connection-timeout", "max-acquire-time")) {
			expected.computeIfPresent(wait, (key, value) -> String.valueOf(
					Math.round(scale.labMs(DurationStyle.detectAndParse(value.trim(), ChronoUnit.MILLIS).toMillis()))));
		}
		return expected;
	}

	/**
	 * What an instance runs with that the block does not say, setting by setting; a
	 * setting the instance does not report is a mismatch too (the lab could not check
	 * it).
	 * @param block the block's settings
	 * @param reported what the instance reported, by the same keys
	 * @param port the instance, for the message
	 * @return one line per difference, empty when the instance runs the block
	 */
	static List<String> mismatches(Map<String, String> block, Map<String, Long> reported, int port) {
		List<String> mismatches = new ArrayList<>();
		block.forEach((key, value) -> {
			Long running = reported.get(key);
			if (running == null) {
				mismatches.add("instance %d does not report %s (block: %s)".formatted(port, key, value));
			}
			else if (!value.trim().equals(Long.toString(running))) {
				mismatches.add("instance %d runs %s=%d, the block says %s".formatted(port, key, running, value));
			}
		});
		return mismatches;
	}

}
