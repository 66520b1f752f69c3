package org.poollab.bench.deploy;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.grid.TimeScale;
import org.poollab.bench.lab.ChildProcesses;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.results.EmulatedHold;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Stack;
import org.poollab.bench.results.SweepResults;
import org.poollab.vendor.DatabaseVendor;
import org.poollab.service.hold.ConnectionHold;

/**
 * What an instance is started with, and the command line and environment its JVM gets
 * from it.
 *
 * @param deployment what every instance of its deployment is started with
 * @param port where it serves requests
 * @param managementPort where it serves the actuator (telemetry, resizing)
 * @param cpus the host CPUs it is pinned to (empty when not pinned)
 * @param log where its output goes
 */
record InstanceStart(Shared deployment, int port, int managementPort, List<Integer> cpus, Path log) {

	private static final String JDBC_MAIN = "org.poollab.service.ServiceApplication";

	private static final String REACTIVE_MAIN = "org.poollab.reactive.ReactiveServiceApplication";

	/**
	 * What every instance of a deployment is started with.
	 *
	 * @param paths the build, whose runtime classpath the instances run
	 * @param jvm the JDK they run on
	 * @param database the shared database
	 * @param pgbouncer what they connect through, or {@code null} to connect to the
	 * database directly
	 * @param poolSize their HikariCP {@code maximum-pool-size}, or
	 * {@link SweepResults#NO_POOL} for no pool at all: Spring's
	 * {@code SimpleDriverDataSource} opens a new connection whenever one is asked for and
	 * closes it when it is given back
	 * @param hikariBlock a YAML file to read every {@code spring.datasource.hikari.*}
	 * setting from instead ({@code spring.config.additional-location}, which overrides
	 * the service's {@code application.yml}), or {@code null}; {@code poolSize} must then
	 * be the file's {@code maximum-pool-size}
	 * @param limits their CPUs, heap and Tomcat threads
	 * @param scale slow motion: the hold and the pool's wait for a connection are
	 * stretched by its factor ({@link TimeScale#NONE} for none)
	 * @param pinning how to pin them to their CPUs, or {@code null} when they are not
	 * pinned
	 * @param processes where their JVMs are tracked, to be stopped with everything else
	 * @param archive the class-data archive they start from, or {@code null} for none
	 */
	record Shared(LabPaths paths, ServiceJvm jvm, Database database, @Nullable PgBouncer pgbouncer, int poolSize,
			@Nullable Path hikariBlock, Limits limits, TimeScale scale, @Nullable CpuPinning pinning,
			ChildProcesses processes, @Nullable ServiceArchive archive) {

		Shared withArchive(@Nullable ServiceArchive archive) {
			return new Shared(this.paths, this.jvm, this.database, this.pgbouncer, this.poolSize, this.hikariBlock,
					this.limits, this.scale, this.pinning, this.processes, archive);
		}

	}

	/**
	 * The training start that writes a class-data archive ({@link ServiceArchive}): the
	 * service on the deployment's database, on ports the system picks, unpinned, without
	 * an emulated hold (whose calibration would only cost time), exiting once its context
	 * has refreshed.
	 * @param classpath the classpath the instances will run with (the archive is valid
	 * for it only)
	 * @param archive where the JDK writes the archive at exit
	 */
	static ProcessBuilder training(Shared shared, String classpath, Path archive, Path log) {
		Shared unpinned = new Shared(shared.paths(), shared.jvm(), shared.database(), shared.pgbouncer(),
				shared.poolSize(), shared.hikariBlock(), shared.limits().withHold(null), TimeScale.NONE, null,
				shared.processes(), null);
		InstanceStart start = new InstanceStart(unpinned, 0, 0, List.of(), log);
		return start.processBuilder(start
			.command(List.of("-XX:ArchiveClassesAtExit=" + archive, "-Dspring.context.exit=onRefresh"), classpath));
	}

	/** The instance's JVM, to be started: its command line, output and environment. */
	ProcessBuilder processBuilder() {
		ServiceArchive archive = this.deployment.archive();
		return processBuilder((archive != null) ? command(archive.jvmOptions(), archive.classpath())
				: command(List.of(), this.deployment.paths().serviceClasspath()));
	}

	private ProcessBuilder processBuilder(List<String> command) {
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(this.log.toFile())
			.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
		// The password goes through the environment: any user can read a command line.
		// The lab's own instances listen on loopback and take no token: one in the lab's
		// environment (target mode's credential) would make them ask for it.
		Database database = this.deployment.database();
		builder.environment().remove(ResizeCredential.ENVIRONMENT_VARIABLE);
		builder.environment().put("SPRING_DATASOURCE_PASSWORD", database.password());
		builder.environment().put("SPRING_R2DBC_PASSWORD", database.password());
		builder.environment().put("SPRING_FLYWAY_PASSWORD", database.password());
		return builder;
	}

	/**
	 * The command line.
	 * @param jvmOptions options of the JVM besides the lab's own
	 * @param classpath the service's classpath
	 */
	private List<String> command(List<String> jvmOptions, String classpath) {
		Limits limits = this.deployment.limits();
		CpuPinning pinning = this.deployment.pinning();
		// taskset execs the JVM: the process (and its id) is the JVM's.
		List<String> command = new ArrayList<>((pinning != null) ? pinning.command(this.cpus) : List.of());
		// The port comes first: process listings cut long command lines in the classpath.
		command.addAll(List.of(this.deployment.jvm().java(), "-Dpoollab.instance=" + this.port, "-Xmx" + limits.heap(),
				"-XX:+ExitOnOutOfMemoryError"));
		if (limits.cpus() > 0) {
			command.add("-XX:ActiveProcessorCount=" + limits.cpus());
		}
		command.addAll(jvmOptions);
		boolean reactive = limits.stack() == Stack.R2DBC;
		command.addAll(List.of("-cp", classpath, reactive ? REACTIVE_MAIN : JDBC_MAIN, "--server.address=127.0.0.1",
				"--server.port=" + this.port, "--management.server.address=127.0.0.1",
				"--management.server.port=" + this.managementPort, "--spring.main.banner-mode=off"));
		command.addAll(connectionArguments(reactive));
		command.addAll(poolArguments(this.deployment.poolSize(), this.deployment.hikariBlock(), reactive,
				this.deployment.scale()));
		Database database = this.deployment.database();
		if (this.deployment.pgbouncer() != null) {
			// Flyway takes a session-level lock, which transaction pooling cannot keep:
			// migrations go to PostgreSQL directly.
			command.addAll(
					List.of("--spring.flyway.url=" + database.url(), "--spring.flyway.user=" + database.username()));
		}
		command.addAll(limitArguments(limits));
		return command;
	}

	/** Where the service connects to, and as whom. */
	private List<String> connectionArguments(boolean reactive) {
		Database database = this.deployment.database();
		PgBouncer pgbouncer = this.deployment.pgbouncer();
		String url = (pgbouncer != null) ? pgbouncer.jdbcUrl() : database.url();
		if (reactive) {
			// Flyway migrates over JDBC, the twin's only JDBC connection.
			return List.of("--spring.r2dbc.url=" + r2dbcUrl(url), "--spring.r2dbc.username=" + database.username(),
					"--spring.flyway.url=" + url, "--spring.flyway.user=" + database.username());
		}
		// The vendor on the command line, where application.yml's import of the vendor's
		// settings (driver properties, migrations) reads it; the twin runs on PostgreSQL
		// only.
		return List.of("--spring.datasource.url=" + url, "--spring.datasource.username=" + database.username(),
				"--" + DatabaseVendor.PROPERTY + "=" + database.vendor().propertyValue());
	}

	/**
	 * Its pool: none, the pasted block's, or the swept size.
	 * @param poolSize the deployment's pool size, {@link SweepResults#NO_POOL} for none
	 * @param hikariBlock the pasted block, or {@code null}
	 * @param reactive whether the instance is the reactive twin
	 * @param scale the deployment's time scale: its wait for a connection is stretched
	 */
	static List<String> poolArguments(int poolSize, @Nullable Path hikariBlock, boolean reactive, TimeScale scale) {
		if (poolSize == SweepResults.NO_POOL) {
			return List.of(reactive ? "--spring.r2dbc.pool.enabled=false"
					: "--spring.datasource.type=org.springframework.jdbc.datasource.SimpleDriverDataSource");
		}
		List<String> arguments = new ArrayList<>();
		if (hikariBlock != null) {
			// Nothing else of the pool's settings on the command line, which would
			// override the file: the block runs as pasted (in slow motion, with its wait
			// for a connection stretched). The resize endpoint is the lab's only way to
			// read the pool's settings back; it changes none of them.
			arguments.addAll(List.of("--spring.config.additional-location=file:" + hikariBlock.toAbsolutePath(),
					"--lab.pool-resize.enabled=true"));
		}
		else {
			String sizeSetting = reactive ? "--spring.r2dbc.pool.max-size="
					: "--spring.datasource.hikari.maximum-pool-size=";
			arguments.addAll(List.of(sizeSetting + poolSize, "--lab.pool-resize.enabled=true"));
		}
		if (scale.slowed()) {
			OptionalLong configuredMs = (hikariBlock != null) ? ServiceTimeouts.ofBlock(hikariBlock, reactive)
					: OptionalLong.of(ServiceTimeouts.configured(reactive));
			configuredMs
				.ifPresent((ms) -> arguments.add(ServiceTimeouts.argument(reactive, Math.round(scale.labMs(ms)))));
		}
		return arguments;
	}

	/** Its emulated hold, virtual threads and Tomcat's thread maximum. */
	private List<String> limitArguments(Limits limits) {
		List<String> arguments = new ArrayList<>();
		EmulatedHold hold = limits.hold();
		if (hold != null) {
			arguments.addAll(holdArguments(hold.scaled(this.deployment.scale().factor()), this.port));
		}
		if (limits.virtualThreads()) {
			// ThreadTelemetry's gauge is the proof that Boot took it (Java 21+ only).
			arguments.add("--spring.threads.virtual.enabled=true");
		}
		if (limits.tomcatThreads() > 0) {
			// The MBean registry exposes tomcat.threads.config.max:
			// the proof that the setting took.
			arguments.addAll(List.of("--server.tomcat.threads.max=" + limits.tomcatThreads(),
					"--server.tomcat.mbeanregistry.enabled=true"));
		}
		return arguments;
	}

	/**
	 * The service's {@code lab.hold.*} for an emulated hold: durations in whole
	 * microseconds (Spring Boot's simple duration format takes whole numbers), the seed
	 * the instance's port, so two runs of one grid draw the same holds.
	 */
	static List<String> holdArguments(EmulatedHold hold, int port) {
		String prefix = "--" + ConnectionHold.PROPERTIES_PREFIX + ".";
		List<String> arguments = new ArrayList<>();
		if (hold.waits()) {
			arguments.addAll(List.of(prefix + "mean=" + micros(hold.meanMs()), prefix + "place=" + hold.place(),
					prefix + "seed=" + port));
			if (hold.histogram() != null) {
				arguments.add(prefix + "histogram=" + hold.histogram());
			}
			else if (hold.p99Ms() != null) {
				arguments.add(prefix + "p99=" + micros(hold.p99Ms()));
			}
			if (hold.usesPerRequest() != 1) {
				arguments.add(prefix + "uses=" + hold.usesPerRequest());
			}
		}
		if (hold.cpuMs() != null) {
			arguments.add(prefix + "cpu=" + micros(hold.cpuMs()));
		}
		return arguments;
	}

	private static String micros(double ms) {
		return Math.round(ms * 1000) + "us";
	}

	/**
	 * The R2DBC URL of the PostgreSQL a JDBC URL names, without the JDBC URL's
	 * parameters, which are pgjdbc's (r2dbc-postgresql names its options differently):
	 * {@code jdbc:postgresql://127.0.0.1:5432/postgres?ssl=false} becomes
	 * {@code r2dbc:postgresql://127.0.0.1:5432/postgres}.
	 */
	static String r2dbcUrl(String jdbcUrl) {
		String prefix = "jdbc:postgresql:";
		if (!jdbcUrl.startsWith(prefix)) {
			throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + Database.withoutQuery(jdbcUrl));
		}
		return "r2dbc:postgresql:" + Database.withoutQuery(jdbcUrl).substring(prefix.length());
	}

}
