package org.poollab.bench;

import java.util.Map;

import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The lab's entry point: {@code ./mvnw verify -Pbench} runs a sweep through it, and the
 * {@code single}/{@code multi} profiles keep a deployment running for the JMeter GUI.
 * Settings come from {@code -Dbench.*} and are bound and validated here before anything
 * starts.
 */
@SpringBootConfiguration
@EnableConfigurationProperties(BenchProperties.class)
public class BenchApplication {

	public static void main(String[] args) throws Exception {
		run(args);
	}

	/**
	 * Runs the sweep (or serves a deployment when {@code bench.serve} is set).
	 * @param args {@code --bench.*=...} settings, on top of system properties
	 * @return what the sweep left behind
	 * @throws Exception when the lab itself broke or a setting is wrong
	 */
	static Sweep.Outcome run(String... args) throws Exception {
		SpringApplication application = new SpringApplication(BenchApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.setBannerMode(Banner.Mode.OFF);
		application.setLogStartupInfo(false);
		application.setDefaultProperties(Map.of("spring.config.name", "bench", "logging.level.root", "WARN"));
		application.setRegisterShutdownHook(false);
		try (ConfigurableApplicationContext context = application.run(args)) {
			BenchProperties properties = context.getBean(BenchProperties.class);
			Grid grid = Grid.of(properties);
			LabPaths paths = LabPaths.of(properties.buildDirectory());
			paths.removeStaleJMeterCopies();
			Sweep sweep = new Sweep(grid, properties, paths, System.out);
			if (properties.serve() != null) {
				sweep.serve(properties.serve());
				return null;
			}
			return sweep.run();
		}
	}

}
