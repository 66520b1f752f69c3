package org.poollab.bench.lab;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The programs the lab starts that it does not bring itself (nginx, pgbouncer, taskset):
 * looked for on {@code PATH}, then where Debian and a source build put them (a daemon's
 * binary often sits in an {@code sbin} directory that a user's {@code PATH} leaves out).
 * One lookup for all of them; a test that needs a machine without one asks for
 * {@link #without}.
 */
public final class Programs {

	private static final List<Path> ALSO = List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"),
			Path.of("/usr/local/sbin"), Path.of("/usr/local/bin"), Path.of("/usr/local/nginx/sbin"));

	private final List<Path> directories;

	private final Set<String> missing;

	private Programs(List<Path> directories, Set<String> missing) {
		this.directories = directories;
		this.missing = missing;
	}

	/** What is installed here: {@code PATH}'s directories, then the usual others. */
	public static Programs installed() {
		Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.filter((dir) -> !dir.isBlank())
			.map(Path::of);
		return new Programs(Stream.concat(onPath, ALSO.stream()).distinct().toList(), Set.of());
	}

	/** These programs, as on a machine where {@code program} is not installed. */
	public Programs without(String program) {
		return new Programs(this.directories,
				Stream.concat(this.missing.stream(), Stream.of(program)).collect(Collectors.toSet()));
	}

	/**
	 * @param program a program's file name, e.g. {@code nginx}
	 * @return the first executable of that name, empty when there is none
	 */
	public Optional<Path> find(String program) {
		if (this.missing.contains(program)) {
			return Optional.empty();
		}
		return this.directories.stream().map((dir) -> dir.resolve(program)).filter(Files::isExecutable).findFirst();
	}

}
