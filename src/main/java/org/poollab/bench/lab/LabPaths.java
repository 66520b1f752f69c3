package org.poollab.bench.lab;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.FileSystemUtils;

/**
 * Where the build put what the sweep runs: the service's classes and runtime classpath
 * (written by maven-dependency-plugin) and the JMeter installation laid out by the
 * jmeter-maven-plugin's configure goal (described in {@code target/config.json}).
 */
public record LabPaths(Path projectDirectory, Path buildDirectory, String serviceClasspath, Path jmeterHome,
		String jmeterJar) {

	public static LabPaths of(Path buildDirectory) {
		Path build = buildDirectory.toAbsolutePath().normalize();
		Path classpathFile = build.resolve("lab/runtime.classpath");
		Path jmeterConfig = build.resolve("config.json");
		if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(jmeterConfig)) {
			throw new LabFailureException(
					"The build has not prepared the lab yet (%s or %s is missing): run it through Maven, e.g. ./mvnw verify -Pbench"
						.formatted(classpathFile, jmeterConfig));
		}
		try {
			String classpath = build.resolve("classes") + File.pathSeparator + Files.readString(classpathFile).trim();
			JsonNode configuration = JsonMapper.builder()
				.build()
				.readTree(jmeterConfig.toFile())
				.get("configurations")
				.get(0);
			// The build directory (target) is inside the project's: never the root.
			return new LabPaths(Objects.requireNonNull(build.getParent(), "the project directory"), build, classpath,
					Path.of(configuration.get("jmeterDirectoryPath").asString()),
					configuration.get("runtimeJarName").asString());
		}
		catch (IOException ex) {
			throw new LabFailureException("Could not read " + classpathFile + " or " + jmeterConfig, ex);
		}
	}

	/** The build's compiled classes, first on {@link #serviceClasspath()}. */
	public Path classesDirectory() {
		return this.buildDirectory.resolve("classes");
	}

	/** {@link #serviceClasspath()} without the build's classes: the dependencies. */
	public String runtimeClasspath() {
		String classes = classesDirectory() + File.pathSeparator;
		return this.serviceClasspath.startsWith(classes) ? this.serviceClasspath.substring(classes.length())
				: this.serviceClasspath;
	}

	/**
	 * The jmeter-maven-plugin lays JMeter out anew (about 80 MB) under a random directory
	 * name at every build and never removes the old copies; only the one
	 * {@code config.json} names is used. Removing the others keeps repeated runs from
	 * filling the disk.
	 * @return how many old copies were removed
	 */
	public int removeStaleJMeterCopies() throws IOException {
		Path current = this.jmeterHome.getParent();
		List<Path> stale;
		try (Stream<Path> entries = Files.list(this.buildDirectory)) {
			stale = entries
				.filter((entry) -> PLUGIN_COPY.matcher(entry.getFileName().toString()).matches()
						&& Files.isDirectory(entry.resolve("jmeter")) && !entry.equals(current))
				.toList();
		}
		for (Path copy : stale) {
			try {
				FileSystemUtils.deleteRecursively(copy);
			}
			catch (NoSuchFileException ex) {
				// Another lab on the same build (a second test JVM) is removing this copy
				// too, and took the file first; what it leaves, the next run removes.
				// Unhandled, this race failed a sweep test in a working copy.
			}
		}
		return stale.size();
	}

	/** The plugin's directory names: random UUIDs. */
	private static final Pattern PLUGIN_COPY = Pattern
		.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

	/**
	 * JMeter's version, read from the jar the plugin laid out
	 * ({@code ApacheJMeter-5.6.3.jar}): the pom's {@code jmeter.version} is its one home.
	 */
	public String jmeterVersion() {
		Matcher version = JMETER_JAR.matcher(this.jmeterJar);
		return version.matches() ? version.group(1) : "(version unknown: " + this.jmeterJar + ")";
	}

	private static final Pattern JMETER_JAR = Pattern.compile("ApacheJMeter-(.+)\\.jar");

	public String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	public Path plan(String name) {
		return this.projectDirectory.resolve("jmeter").resolve(name);
	}

}
