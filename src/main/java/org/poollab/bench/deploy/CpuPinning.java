package org.poollab.bench.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.lab.Programs;

/**
 * Which of this host's CPUs each instance is pinned to when {@code bench.instanceCpus} is
 * set, the paper's "each instance limited to 1 CPU". Pinning is {@code taskset}
 * (util-linux) around the instance's JVM, which then also gets
 * {@code -XX:ActiveProcessorCount} so that its GC and pools size themselves for the CPUs
 * it has.
 */
public final class CpuPinning {

	private final List<Integer> hostCpus;

	private final Path taskset;

	private CpuPinning(List<Integer> hostCpus, Path taskset) {
		this.hostCpus = hostCpus;
		this.taskset = taskset;
	}

	/**
	 * Checks, before anything starts, that {@code cpus} per instance can be pinned here
	 * (the caller has checked that this host has that many).
	 * @param cpus CPUs per instance
	 * @param programs where taskset is looked for
	 * @return the pinning for this host
	 */
	public static CpuPinning require(int cpus, Programs programs) {
		Path taskset = programs.find("taskset")
			.orElseThrow(() -> new BenchSettingException(
					"bench.instanceCpus=%d needs taskset to pin each instance to its CPUs, and taskset is not installed (apt-get install util-linux). Leave bench.instanceCpus unset to run the instances unpinned."
						.formatted(cpus)));
		return new CpuPinning(allowedCpus(), taskset);
	}

	/**
	 * The CPUs instance {@code index} (0-based) is pinned to: round robin over the host's
	 * CPUs, instance i taking CPUs {@code i*cpus .. i*cpus+cpus-1}, wrapping around. With
	 * more instances than CPUs (three single-CPU instances on two cores), instances share
	 * a CPU, as in any over-committed host; each one still never uses more than
	 * {@code cpus} at a time.
	 */
	List<Integer> cpusOf(int index, int cpus) {
		return IntStream.range(index * cpus, index * cpus + cpus)
			.mapToObj((i) -> this.hostCpus.get(i % this.hostCpus.size()))
			.distinct()
			.sorted()
			.toList();
	}

	/** The command prefix that pins what follows, e.g. {@code taskset -c 0}. */
	List<String> command(List<Integer> cpus) {
		return List.of(this.taskset.toString(), "-c", cpuList(cpus));
	}

	static String cpuList(List<Integer> cpus) {
		return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
	}

	/**
	 * The CPUs this process may run on (a container's cpuset need not start at 0), from
	 * {@code Cpus_allowed_list} in {@code /proc/self/status}, e.g. {@code 0-3,8}.
	 */
	public static List<Integer> allowedCpus() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
				if (line.startsWith("Cpus_allowed_list:")) {
					return parseCpuList(line.substring(line.indexOf(':') + 1).trim());
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// Not Linux, or unreadable: assume CPUs 0..n-1.
		}
		return IntStream.range(0, Runtime.getRuntime().availableProcessors()).boxed().toList();
	}

	/** {@code 0-2,5} as {@code [0, 1, 2, 5]}. */
	static List<Integer> parseCpuList(String list) {
		List<Integer> cpus = new ArrayList<>();
		for (String range : list.split(",")) {
			String[] bounds = range.trim().split("-");
			int first = Integer.parseInt(bounds[0]);
			int last = (bounds.length > 1) ? Integer.parseInt(bounds[1]) : first;
			IntStream.rangeClosed(first, last).forEach(cpus::add);
		}
		return cpus;
	}

}
