package org.poollab.bench;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import org.poollab.bench.deploy.CpuPinning;
import org.poollab.bench.results.Limits;
import org.poollab.bench.results.Point;
import org.poollab.bench.results.RequestThreads;
import org.poollab.bench.results.ResultsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source texts' instance settings through a tiny real sweep: instances limited like
 * the paper's (CPUs and heap) and Tomcat's thread maximum as a dimension of the grid.
 */
@ExtendWith(OutputCaptureExtension.class)
class InstanceSettingsSweepIT {

	@TempDir
	Path output;

	@Test
	void instancesRunPinnedWithTheirHeapAndAFreshDeploymentPerTomcatThreadCount(CapturedOutput console)
			throws Exception {
		Sweep.Outcome outcome = BenchApplication.run("--bench.preset=quick", "--bench.topologies=single",
				"--bench.poolSizes=2", "--bench.rates=50", "--bench.duration=2s", "--bench.warmup=1s",
				"--bench.topologyWarmup=0s", "--bench.confirmation=0s", "--bench.instanceCpus=1",
				"--bench.instanceHeap=192m", "--bench.tomcatThreads=20,200", "--bench.outputDirectory=" + this.output,
				"--bench.basePort=" + SweepEndToEndIT.freeBasePort(2));

		List<Point> points = outcome.results().points();
		assertThat(points).extracting(Point::limits)
			.containsExactly(new Limits(1, "192m", RequestThreads.platform(20)),
					new Limits(1, "192m", RequestThreads.platform(200)));
		assertThat(points).isNotEmpty()
			.allSatisfy((point) -> SweepEndToEndIT.assertMeasured(point.outcome(), "pool " + point.poolSize()));
		assertThat(ResultsStore.read(outcome.directory().resolve(ResultsStore.RESULTS_JSON)))
			.isEqualTo(outcome.results());

		// What each instance reported about itself (Instance.verifyLimits): the CPU the
		// kernel lets it run on, the processors the JVM sees, its heap and Tomcat's
		// maximum threads. The first instance is pinned to the first CPU of the host.
		String pinned = "runs with CPU(s) %d, 1 processor(s), heap max ".formatted(CpuPinning.allowedCpus().get(0));
		assertThat(console).contains(pinned, "(-Xmx192m), Tomcat threads max 20, requests on platform threads\n",
				"(-Xmx192m), Tomcat threads max 200, requests on platform threads\n");
		assertThat(outcome.directory().resolve("deploy/single-tomcat20")).isDirectory();
		assertThat(outcome.directory().resolve("deploy/single-tomcat200")).isDirectory();
		assertThat(outcome.directory().resolve("report.md")).content()
			.contains("## Topology single: 1 instance (1 CPU, heap 192m, 20 Tomcat threads)",
					"## Topology single: 1 instance (1 CPU, heap 192m, 200 Tomcat threads)");
	}

}
