package org.poollab.bench.deploy;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import org.poollab.bench.lab.LabPaths;

/**
 * A class-data archive the service instances start from (AppCDS: JEP 350's dynamic
 * archive, in the JDK since 13). A Spring Boot instance spends most of its start-up
 * loading and verifying classes; mapped from the archive, they are ready sooner (measured
 * on the building-and-testing page), and the lab starts every instance of every
 * deployment afresh. Only start-up changes: the archive holds the same classes, and the
 * JIT compiles the same code under load.
 * <p>
 * Made once per build and JDK: a training start of the service
 * ({@code -XX:ArchiveClassesAtExit}, {@code -Dspring.context.exit=onRefresh}: it connects
 * to the sweep's database, refreshes its context and exits) writes it under
 * {@code target/lab/cds/<key>/}, where every later deployment, run and test of the same
 * classes finds it; labs that start at once on the same build (Failsafe's test JVMs) wait
 * for one training under a file lock rather than each making its own. The key digests the
 * JDK, the runtime classpath and every file of the build's classes (path, size, time), so
 * a change to either makes a new one. The JDK archives classes from jars only, so the
 * instances then run the build's classes from a jar of them made with the archive.
 * <p>
 * Where it cannot be made (an old or unusual JDK, a training start that fails), the lab
 * says so once and the instances start as before, from the classes directory; a
 * {@code failed} marker keeps later deployments of the same build from trying again. An
 * archive the JDK cannot map at start is ignored by the JDK ({@code -Xshare:auto}, its
 * default).
 *
 * @param classpath the instances' classpath: the jar of the build's classes, then the
 * runtime classpath
 * @param archive the archive
 */
record ServiceArchive(String classpath, Path archive) {

	/** Under the build directory. */
	static final String DIRECTORY = "lab/cds";

	private static final long TRAINING_TIMEOUT_SECONDS = 180;

	private static final String JAR = "service-classes.jar";

	private static final String ARCHIVE = "service.jsa";

	private static final String FAILED = "failed";

	/** Held, with the file lock, while one thread of this JVM makes an archive. */
	private static final Object TRAINING = new Object();

	/** The JVM options that start an instance from the archive. */
	List<String> jvmOptions() {
		return List.of("-XX:SharedArchiveFile=" + this.archive, "-Xshare:auto");
	}

	/**
	 * The archive of these classes for this JDK: the one made earlier, or made now by a
	 * training start of the service against the deployment's database.
	 * @param shared what the deployment's instances are started with (no archive yet)
	 * @param directory the deployment's directory, where the training start's log goes
	 * @param out the console
	 * @return empty, said on the console, when none can be made
	 */
	static Optional<ServiceArchive> prepare(InstanceStart.Shared shared, Path directory, PrintStream out)
			throws IOException, InterruptedException {
		LabPaths paths = shared.paths();
		Path classes = paths.classesDirectory();
		String runtimeClasspath = paths.runtimeClasspath();
		Path home = paths.buildDirectory().resolve(DIRECTORY).resolve(key(shared.jvm(), runtimeClasspath, classes));
		Path jar = home.resolve(JAR);
		Path archive = home.resolve(ARCHIVE);
		String classpath = jar + File.pathSeparator + runtimeClasspath;
		Files.createDirectories(home);
		// Labs started at once on the same build (the test JVMs, two sweeps side by side)
		// train one archive between them: the first takes the lock and trains, the others
		// wait and find its archive (or its failed marker). The monitor covers threads of
		// one JVM, which a file lock does not tell apart.
		synchronized (TRAINING) {
			try (FileChannel lockFile = FileChannel.open(home.resolve("lock"), StandardOpenOption.CREATE,
					StandardOpenOption.WRITE); FileLock lock = lockFile.lock()) {
				if (Files.isRegularFile(archive) && Files.isRegularFile(jar)) {
					return Optional.of(new ServiceArchive(classpath, archive));
				}
				if (Files.exists(home.resolve(FAILED))) {
					return Optional.empty();
				}
				return train(shared, directory, out, home, classes, classpath);
			}
		}
	}

	/** The training start, under the lock; writes the archive or the failed marker. */
	private static Optional<ServiceArchive> train(InstanceStart.Shared shared, Path directory, PrintStream out,
			Path home, Path classes, String classpath) throws IOException, InterruptedException {
		Path jar = home.resolve(JAR);
		Path archive = home.resolve(ARCHIVE);
		Path failed = home.resolve(FAILED);
		if (!Files.isRegularFile(jar)) {
			Path partialJar = Files.createTempFile(home, "service-classes", ".jar.part");
			writeJar(classes, partialJar);
			move(partialJar, jar);
		}
		Path partial = home.resolve("service.jsa.part" + ProcessHandle.current().pid());
		Path log = directory.resolve("class-data-archive.log");
		long started = System.nanoTime();
		Process training = shared.processes()
			.start("class-data-archive", InstanceStart.training(shared, classpath, partial, log));
		try {
			boolean exited = training.waitFor(TRAINING_TIMEOUT_SECONDS, TimeUnit.SECONDS);
			if (exited && training.exitValue() == 0 && Files.isRegularFile(partial)) {
				move(partial, archive);
				out.printf("  class-data archive for the instances made in %.1f s (%s), reused while the build's "
						+ "classes and JDK stay the same%n", (System.nanoTime() - started) / 1e9, archive);
				return Optional.of(new ServiceArchive(classpath, archive));
			}
			Files.writeString(failed, exited ? "exit code " + training.exitValue() : "timed out");
			out.printf("  class-data archive not made (%s; its log: %s): instances start without one%n",
					exited ? "the training start exited with code " + training.exitValue()
							: "the training start took over " + TRAINING_TIMEOUT_SECONDS + " s",
					log);
			return Optional.empty();
		}
		finally {
			shared.processes().stop(training.toHandle());
			Files.deleteIfExists(partial);
		}
	}

	/**
	 * A digest of what the archive depends on: the JDK, the runtime classpath, and each
	 * file of the build's classes by path, size and modification time.
	 */
	static String key(ServiceJvm jvm, String runtimeClasspath, Path classes) throws IOException {
		MessageDigest digest;
		try {
			digest = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every JDK has SHA-256", ex);
		}
		update(digest, jvm.home().toRealPath() + "\n" + jvm.version() + "\n" + runtimeClasspath + "\n");
		try (Stream<Path> files = Files.walk(classes)) {
			for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
				update(digest, classes.relativize(file) + " " + Files.size(file) + " "
						+ Files.getLastModifiedTime(file).toMillis() + "\n");
			}
		}
		return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
	}

	private static void update(MessageDigest digest, String text) {
		digest.update(text.getBytes(StandardCharsets.UTF_8));
	}

	/** The build's classes as a jar, directories first as the jar tool writes them. */
	private static void writeJar(Path classes, Path jar) throws IOException {
		try (OutputStream file = Files.newOutputStream(jar);
				JarOutputStream out = new JarOutputStream(file);
				Stream<Path> paths = Files.walk(classes)) {
			for (Path path : paths.filter((path) -> !path.equals(classes)).sorted().toList()) {
				String name = classes.relativize(path).toString().replace(File.separatorChar, '/');
				boolean directory = Files.isDirectory(path);
				out.putNextEntry(new JarEntry(directory ? name + "/" : name));
				if (!directory) {
					Files.copy(path, out);
				}
				out.closeEntry();
			}
		}
	}

	private static void move(Path from, Path to) throws IOException {
		try {
			Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (AtomicMoveNotSupportedException ex) {
			Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
		}
	}

}
