package org.poollab.bench;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;

import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

import org.poollab.bench.deploy.Database;
import org.poollab.bench.grid.ContentionRates;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.grid.Grid.Planned;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.load.DatabaseScaling;
import org.poollab.bench.results.CpuCeiling;
import org.poollab.bench.results.DatabaseFacts;
import org.poollab.bench.results.EmulatedHold;

import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.core.io.ClassPathResource;

/**
 * Before a {@code contention} grid, on its database: what the database's CPU carries on
 * this box ({@link DatabaseScaling#ceiling}), and the preset's rates as shares of it
 * ({@link ContentionRates}) in place of its fixed ones, so that every box is asked the
 * same question.
 */
final class ContentionCeiling {

	private ContentionCeiling() {
	}

	/**
	 * Whether the sweep measures the ceiling: the {@code contention} preset with its
	 * rates not given ({@code bench.rates} keeps what it says), requests that cost the
	 * database CPU, and instances the lab deploys itself: their database's schema is the
	 * lab's to create ({@link #migrate}), a team's deployment's is not.
	 * @param explicitRates {@code bench.rates}; {@code null} when not given
	 * @param labDeploys whether the lab starts the instances (not target mode)
	 */
	static boolean applies(Preset preset, @Nullable List<Integer> explicitRates, @Nullable EmulatedHold hold,
			boolean labDeploys) {
		return preset == Preset.CONTENTION && explicitRates == null && hold != null && hold.cpuMs() != null
				&& labDeploys;
	}

	/**
	 * The grid and its points at rates from the measured ceiling.
	 *
	 * @param grid the grid at the measured rates
	 * @param planned the points at the measured rates
	 * @param ceiling what was measured
	 */
	record Replanned(Grid grid, List<Planned> planned, CpuCeiling ceiling) {
	}

	/**
	 * Measures the ceiling and replans, saying so on the console.
	 * @param grid the grid with the preset's rates, with a CPU hold
	 * @param planned its points on this database
	 * @param remoteEngines the remote engines each rate is split between, 0 for none
	 */
	static Replanned measure(Grid grid, List<Planned> planned, Database database, int remoteEngines, PrintStream out)
			throws SQLException, InterruptedException {
		double cpuMs = Objects.requireNonNull(Objects.requireNonNull(grid.hold()).cpuMs());
		out.println("Measuring what the database's CPU carries here, for the contention preset's rates...");
		migrate(database);
		DatabaseFacts facts = database.describe();
		CpuCeiling ceiling = DatabaseScaling.ceiling(database, cpuMs,
				facts.budgetKnown() ? facts.maxConnections() - facts.reservedConnections() : Integer.MAX_VALUE, out);
		List<Integer> rates = ContentionRates.of(ceiling.rps(), remoteEngines);
		out.printf(Locale.ROOT, "  Rates %s rps (%.2f and %.2f of %.0f rps) in place of the preset's %s rps.%n",
				join(rates), ContentionRates.LOW_SHARE, ContentionRates.HIGH_SHARE, ceiling.rps(), join(grid.rates()));
		return new Replanned(grid.withRates(rates), ContentionRates.replan(planned, grid.rates(), rates), ceiling);
	}

	/**
	 * The service's schema, which its first instance would create: the ceiling runs the
	 * service's own statement, before any instance started. With the locations the
	 * instances' Flyway reads (the vendor's {@code db/<vendor>.yml}), so they find it
	 * migrated and migrate nothing.
	 */
	static void migrate(Database database) {
		YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
		yaml.setResources(new ClassPathResource("db/" + database.vendor().propertyValue() + ".yml"));
		Properties settings = Objects.requireNonNull(yaml.getObject());
		Flyway.configure()
			.dataSource(database.url(), database.username(), database.password())
			.locations(settings.getProperty(FLYWAY_LOCATIONS).split(","))
			.load()
			.migrate();
	}

	private static final String FLYWAY_LOCATIONS = "spring.flyway.locations";

	private static String join(List<Integer> rates) {
		return rates.stream().map(String::valueOf).collect(Collectors.joining(" and "));
	}

}
