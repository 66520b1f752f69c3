package org.poollab.bench.deploy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.poollab.bench.lab.LabFailureException;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Stack;
import org.poollab.service.system.ThreadTelemetry;

/**
 * The proof that a started instance runs with its limits, read from the instance itself:
 * a point measured on an instance without them would be measured on another machine.
 */
final class LimitsCheck {

	private LimitsCheck() {
	}

	/**
	 * Asks the running instance what it was given, and refuses to measure one that does
	 * not run with its limits: the CPUs the kernel lets it use, the processors the JVM
	 * sees, its maximum heap and Tomcat's thread maximum.
	 * @return what the instance reported, for the console
	 */
	static String verify(Instance instance, Limits limits, List<Integer> cpus)
			throws IOException, InterruptedException {
		List<String> seen = new ArrayList<>();
		if (!cpus.isEmpty()) {
			String allowed = instance.allowedCpus();
			double processors = instance.metric("system.cpu.count", "");
			if (!CpuPinning.parseCpuList(allowed).equals(cpus) || processors != limits.cpus()) {
				throw new LabFailureException(
						"Instance on port %d should run on CPU(s) %s with %d processor(s), but runs on %s and sees %.0f"
							.formatted(instance.port(), CpuPinning.cpuList(cpus), limits.cpus(), allowed, processors));
			}
			seen.add("CPU(s) %s, %.0f processor(s)".formatted(allowed, processors));
		}
		double heapBytes = instance.metric("jvm.memory.max", "?tag=area:heap");
		long xmxBytes = bytes(limits.heap());
		// The JVM reports its heap's pools; with the serial collector one survivor space
		// is left out, so the sum is a few percent below -Xmx.
		if (heapBytes > xmxBytes || heapBytes < 0.85 * xmxBytes) {
			throw new LabFailureException("Instance on port %d should have a heap of -Xmx%s, but reports %.0f bytes"
				.formatted(instance.port(), limits.heap(), heapBytes));
		}
		seen.add("heap max %.0f MiB (-Xmx%s)".formatted(heapBytes / (1 << 20), limits.heap()));
		if (limits.tomcatThreads() > 0) {
			double threads = instance.metric("tomcat.threads.config.max", "");
			if (threads != limits.tomcatThreads()) {
				throw new LabFailureException("Instance on port %d should allow %d Tomcat threads, but reports %.0f"
					.formatted(instance.port(), limits.tomcatThreads(), threads));
			}
			seen.add("Tomcat threads max %.0f".formatted(threads));
		}
		if (limits.stack() == Stack.R2DBC) {
			// The reactive twin has no request threads to prove: Reactor Netty's event
			// loop
			// runs them, and its actuator listens on a connector of its own.
			seen.add("requests on Reactor Netty's event loop");
			return String.join(", ", seen);
		}
		// Boot runs requests on virtual threads only when asked and on Java 21 or later;
		// the service's gauge is Boot's own decision.
		boolean virtual = instance.metric(ThreadTelemetry.VIRTUAL_METRIC, "") == 1;
		if (virtual != limits.virtualThreads()) {
			throw new LabFailureException(
					"Instance on port %d should run its requests on %s threads, but runs them on %s"
						.formatted(instance.port(), limits.threads().model(), virtual ? "virtual" : "platform"));
		}
		seen.add("requests on %s threads".formatted(virtual ? "virtual" : "platform"));
		// Scrapes must not queue behind the request threads (ManagementThreads).
		if (instance.metric(ThreadTelemetry.SCRAPE_THREAD_VIRTUAL_METRIC, "") != 0) {
			throw new LabFailureException(
					"Instance on port %d answers its actuator on virtual threads: its telemetry would queue behind the requests"
						.formatted(instance.port()));
		}
		return String.join(", ", seen);
	}

	/** {@code 128m} or {@code 1g} in bytes. */
	static long bytes(String heap) {
		long amount = Long.parseLong(heap.substring(0, heap.length() - 1));
		char unit = Character.toLowerCase(heap.charAt(heap.length() - 1));
		return amount << ((unit == 'g') ? 30 : 20);
	}

}
