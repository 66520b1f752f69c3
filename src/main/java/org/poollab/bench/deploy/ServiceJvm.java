package org.poollab.bench.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.lab.BenchSettingException;

/**
 * The JDK the service instances run on. The lab's own by default; virtual threads need
 * Java 21 or later, and where the lab runs on an older JVM (Java 17 is enough to build
 * and run it) the newest Java 21+ JDK installed in the usual places takes its place, for
 * every instance of the sweep, platform threads too: a comparison of thread models on two
 * different JVMs would measure the JVMs.
 *
 * @param home the JDK's directory
 * @param version its {@code JAVA_VERSION}, e.g. {@code 25.0.3}
 * @param vendor its {@code IMPLEMENTOR}, e.g. {@code Eclipse Adoptium}, empty if unknown
 */
public record ServiceJvm(Path home, String version, String vendor) {

	/** The release that made virtual threads final (JEP 444). */
	public static final int VIRTUAL_THREADS_SINCE = 21;

	/** What {@code bench.serviceJavaHome} accepts, for messages and the options page. */
	public static final String ALLOWED = "the directory of a JDK, e.g. /usr/lib/jvm/temurin-25-jdk-amd64";

	/** Where JDKs are installed: Debian/Ubuntu, RPM systems, SDKMAN!, macOS. */
	private static final List<String> INSTALL_DIRECTORIES = List.of("/usr/lib/jvm", "/usr/java", "/opt/java",
			System.getProperty("user.home") + "/.sdkman/candidates/java", "/Library/Java/JavaVirtualMachines");

	/** The executable the instances start with. */
	public String java() {
		return this.home.resolve("bin").resolve("java").toString();
	}

	/** The feature release, e.g. 25 for {@code 25.0.3}, 8 for {@code 1.8.0_402}. */
	public int feature() {
		String[] parts = this.version.split("[.+_-]");
		int first = Integer.parseInt(parts[0]);
		return (first == 1 && parts.length > 1) ? Integer.parseInt(parts[1]) : first;
	}

	/**
	 * E.g. {@code Java 25.0.3 (Eclipse Adoptium) at /usr/lib/jvm/temurin-25-jdk-amd64}.
	 */
	public String describe() {
		return "Java " + this.version + (this.vendor.isEmpty() ? "" : " (" + this.vendor + ")") + " at " + this.home;
	}

	/**
	 * The JDK for this sweep's instances.
	 * @param configured {@code bench.serviceJavaHome}, or {@code null}
	 * @param virtualThreads whether any point runs on virtual threads
	 * @throws BenchSettingException when the configured JDK is not one, or virtual
	 * threads are asked for and no Java 21+ JDK is given or found
	 */
	public static ServiceJvm choose(@Nullable Path configured, boolean virtualThreads) {
		if (configured != null) {
			ServiceJvm jvm = at(configured).orElseThrow(() -> new BenchSettingException(
					"bench.serviceJavaHome=%s is not a JDK (no bin/java and release file there). Allowed: %s. Nothing was started."
						.formatted(configured, ALLOWED)));
			if (virtualThreads && jvm.feature() < VIRTUAL_THREADS_SINCE) {
				throw new BenchSettingException(
						"bench.serviceJavaHome=%s is Java %s, but bench.threads=virtual needs Java %d or later. Nothing was started."
							.formatted(configured, jvm.version(), VIRTUAL_THREADS_SINCE));
			}
			return jvm;
		}
		ServiceJvm own = at(Path.of(System.getProperty("java.home")))
			.orElse(new ServiceJvm(Path.of(System.getProperty("java.home")), Runtime.version().toString(), ""));
		if (!virtualThreads || own.feature() >= VIRTUAL_THREADS_SINCE) {
			return own;
		}
		return installed().stream()
			.filter((jvm) -> jvm.feature() >= VIRTUAL_THREADS_SINCE)
			.max(Comparator.comparingInt(ServiceJvm::feature))
			.orElseThrow(() -> new BenchSettingException(
					"bench.threads=virtual needs the service to run on Java %d or later; the lab runs on Java %s (%s) and found none under %s. Install one (e.g. apt-get install openjdk-21-jdk-headless) or set bench.serviceJavaHome to its directory. Nothing was started."
						.formatted(VIRTUAL_THREADS_SINCE, own.version(), own.home(),
								String.join(", ", INSTALL_DIRECTORIES))));
	}

	/** The JDKs in {@link #INSTALL_DIRECTORIES}. */
	public static List<ServiceJvm> installed() {
		List<ServiceJvm> found = new ArrayList<>();
		for (String directory : INSTALL_DIRECTORIES) {
			Path root = Path.of(directory);
			if (!Files.isDirectory(root)) {
				continue;
			}
			try (Stream<Path> homes = Files.list(root)) {
				homes.sorted().forEach((home) -> {
					at(home).ifPresent(found::add);
					at(home.resolve("Contents/Home")).ifPresent(found::add);
				});
			}
			catch (IOException ex) {
				// An unreadable directory holds no JDK the lab could start.
			}
		}
		return found;
	}

	/** The JDK at {@code home}, read off its {@code release} file. */
	static Optional<ServiceJvm> at(Path home) {
		Path release = home.resolve("release");
		if (!Files.isRegularFile(release) || !Files.isExecutable(home.resolve("bin").resolve("java"))) {
			return Optional.empty();
		}
		Properties values = new Properties();
		try (var reader = Files.newBufferedReader(release)) {
			values.load(reader);
		}
		catch (IOException | IllegalArgumentException ex) {
			return Optional.empty();
		}
		String version = unquote(values.getProperty("JAVA_VERSION", ""));
		if (!version.matches("[0-9][0-9.+_\\-A-Za-z]*")) {
			return Optional.empty();
		}
		ServiceJvm jvm = new ServiceJvm(home.toAbsolutePath().normalize(), version,
				unquote(values.getProperty("IMPLEMENTOR", "")));
		try {
			jvm.feature();
			return Optional.of(jvm);
		}
		catch (NumberFormatException ex) {
			return Optional.empty();
		}
	}

	private static String unquote(String value) {
		String trimmed = value.trim();
		return (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\""))
				? trimmed.substring(1, trimmed.length() - 1) : trimmed;
	}

}
