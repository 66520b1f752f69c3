package org.poollab.bench;

import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Grid;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.lab.LabPaths;
import org.poollab.bench.lab.Programs;
import org.poollab.bench.settings.BenchProperties;
import org.poollab.bench.settings.BenchBinder;
import org.poollab.bench.settings.GridSettings;
import org.poollab.bench.settings.QuestionSettings;
import org.poollab.bench.settings.TargetSettings;

/**
 * The lab's entry point: {@code ./mvnw verify -Pbench} runs a sweep through it, and the
 * {@code single}/{@code multi} profiles keep a deployment running for the JMeter GUI.
 * Settings come from {@code -Dbench.*} and are bound and validated here before anything
 * starts.
 */
@SpringBootConfiguration
public class BenchApplication {

	/**
	 * Exit code of a run refused for a bad setting.
	 */
	static final int BAD_SETTING_EXIT_CODE = 2;

	/**
	 * Exit code of a run the lab itself broke ({@link LabFailureException}), and of any
	 * other failure.
	 */
	static final int LAB_FAILURE_EXIT_CODE = 1;

	/**
	 * Runs the lab; a bad setting ends it with one line on standard error per bad setting
	 * and exit code {@value #BAD_SETTING_EXIT_CODE}, and a lab failure with its message
	 * (what broke, what is kept) and exit code {@value #LAB_FAILURE_EXIT_CODE}, neither
	 * with a stack trace. The lab runs inside Maven ({@code exec:java}), so exiting here
	 * also ends Maven, before it prints the exception's stack trace and wraps the message
	 * in a build failure.
	 * @param args {@code --bench.*=...} settings, on top of system properties
	 * @throws Exception when something other than the lab's checks failed
	 */
	public static void main(String[] args) throws Exception {
		try {
			run(System.out, args);
		}
		catch (BenchSettingException ex) {
			System.err.println(ex.getMessage());
			System.exit(BAD_SETTING_EXIT_CODE);
		}
		catch (LabFailureException ex) {
			System.err.println(ex.getMessage());
			System.exit(LAB_FAILURE_EXIT_CODE);
		}
	}

	/**
	 * Runs the sweep (or serves a deployment when {@code bench.serve} is set).
	 * @param args {@code --bench.*=...} settings, on top of system properties
	 * @return what the sweep left behind, or null when it served a deployment instead
	 * @throws BenchSettingException when a setting is wrong, before anything starts
	 * @throws Exception when the lab itself broke
	 */
	static Sweep.@Nullable Outcome run(String... args) throws Exception {
		return run(System.out, args);
	}

	/**
	 * Runs the sweep, its progress and results printed to {@code console}: each point's
	 * progress line is printed before its load starts.
	 */
	static Sweep.@Nullable Outcome run(PrintStream console, String... args) throws Exception {
		return run(console, Programs.installed(), args);
	}

	/**
	 * Runs the sweep with the programs {@code programs} finds (a test's machine without
	 * pgbouncer, say).
	 */
	static Sweep.@Nullable Outcome run(PrintStream console, Programs programs, String... args) throws Exception {
		return run(console, programs, System::getenv, args);
	}

	/**
	 * Runs the sweep with the environment variables {@code variables} looks up (a test's
	 * resize token: {@link ResizeCredential#ENVIRONMENT_VARIABLE}).
	 */
	static Sweep.@Nullable Outcome run(PrintStream console, Programs programs, UnaryOperator<String> variables,
			String... args) throws Exception {
		SpringApplication application = new SpringApplication(BenchApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		// zonky's "Could not stop postmaster", with its stack trace, only repeats what
		// the lab says of a PostgreSQL that died (Database#exit); a live one that
		// pg_ctl could not stop, the lab stops itself (ChildProcesses).
		application.setDefaultProperties(Map.of("spring.config.name", "bench", "logging.level.root", "WARN",
				"logging.level." + EmbeddedPostgres.class.getName(), "OFF"));
		application.setRegisterShutdownHook(false);
		try (ConfigurableApplicationContext context = application.run(args)) {
			BenchProperties properties = BenchBinder.bind(context.getEnvironment());
			Grid grid = GridSettings.grid(properties);
			Optional<ExternalTarget> external = TargetSettings.external(properties, variables);
			LabPaths paths = LabPaths.of(properties.run().buildDirectory());
			paths.removeStaleJMeterCopies();
			if (properties.run().serve() != null) {
				new Serve(grid, properties, paths, programs, console).run(properties.run().serve());
				return null;
			}
			SweepSetup setup = new SweepSetup(grid, QuestionSettings.question(properties), properties, paths, console);
			return new Sweep(setup, programs, external).run();
		}
	}

}
