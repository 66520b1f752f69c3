package org.poollab.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.poollab.bench.deploy.Ports;

/**
 * The ports a sweep test gives the lab ({@code bench.basePort}): each test JVM claims a
 * range of its own for its life, by holding a file lock under {@code java.io.tmpdir}, so
 * test JVMs running at once (Failsafe's forks, or a second build of the project beside
 * this one) never hand out the same ports, and one JVM runs one test at a time.
 * <p>
 * Ports free at the time of asking are not enough: until 2026-11-28 each JVM started
 * probing at a base derived from its pid, two JVMs whose pids differed by 3 started 30
 * ports apart, and a sweep that found its own ports busy stepped into the other's range
 * while that one's killed instance was between death and replacement ("Port 23031 was
 * already in use" in a fresh-clone run). Failsafe's {@code surefire.forkNumber} would
 * separate the forks of one build but not two builds, and in {@code
 * systemPropertyVariables} it arrived empty.
 */
final class TestPorts {

	/**
	 * The first range starts here; the last ends below Linux's ephemeral ports (32768).
	 */
	private static final int FIRST_PORT = 20000;

	private static final int PORTS_PER_RANGE = 1250;

	private static final int RANGES = 10;

	/** The claimed range's lock, held until the JVM exits. */
	private static final List<Object> HELD = new ArrayList<>();

	private static int range = -1;

	private TestPorts() {
	}

	/**
	 * A base port from which {@code count} consecutive ports are free now, in this JVM's
	 * range.
	 */
	static int freeBase(int count) throws IOException {
		int first = FIRST_PORT + claimedRange() * PORTS_PER_RANGE;
		for (int base = first; base + count <= first + PORTS_PER_RANGE; base += 10) {
			if (allFree(base, count)) {
				return base;
			}
		}
		throw new IllegalStateException(
				"no " + count + " free consecutive ports in " + first + "-" + (first + PORTS_PER_RANGE - 1));
	}

	private static synchronized int claimedRange() throws IOException {
		if (range >= 0) {
			return range;
		}
		Path directory = Path.of(System.getProperty("java.io.tmpdir"));
		for (int candidate = 0; candidate < RANGES; candidate++) {
			FileChannel channel = FileChannel.open(directory.resolve("poollab-test-ports-" + candidate + ".lock"),
					StandardOpenOption.CREATE, StandardOpenOption.WRITE);
			FileLock lock = channel.tryLock();
			if (lock != null) {
				HELD.add(channel);
				HELD.add(lock);
				range = candidate;
				return range;
			}
			channel.close();
		}
		throw new IllegalStateException("all " + RANGES + " port ranges are held by other test JVMs (locks "
				+ directory.resolve("poollab-test-ports-*.lock") + ")");
	}

	private static boolean allFree(int base, int count) {
		return IntStream.range(base, base + count).allMatch(Ports::free);
	}

}
