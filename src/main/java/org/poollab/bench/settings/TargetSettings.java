package org.poollab.bench.settings;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import org.poollab.bench.settings.BenchProperties.Target;
import org.poollab.bench.deploy.ExternalTarget;
import org.poollab.bench.deploy.ResizeCredential;
import org.poollab.bench.grid.Preset;
import org.poollab.bench.grid.Requests;
import org.poollab.bench.grid.Workload;
import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.results.SweepResults;

/**
 * The settings of target mode ({@code bench.target=external}), checked as a whole before
 * anything starts: a deployment the lab did not start is loaded as deployed, so what
 * would shape the lab's own deployments is refused beside it, and its settings without
 * it.
 */
public final class TargetSettings {

	private TargetSettings() {
	}

	/**
	 * The external deployment {@code bench.target=external} asks for, checked; empty for
	 * the lab's own.
	 * @param environment where the resize token is read
	 * ({@link ResizeCredential#ENVIRONMENT_VARIABLE})
	 * @throws BenchSettingException for a setting of target mode without it, a setting
	 * that shapes deployments the lab starts beside it, or a bad target
	 */
	public static Optional<ExternalTarget> external(BenchProperties settings, UnaryOperator<String> environment) {
		if (settings.target() == Target.LAB) {
			refuseWithoutExternal("targets", settings.targets());
			refuseWithoutExternal("actuators", settings.actuators());
			refuseWithoutExternal("resizeCommand", settings.resizeCommand());
			refuseWithoutExternal("requests", settings.requests());
			refuseWithoutExternal("poolName", settings.poolName());
			return Optional.empty();
		}
		refuseDeploymentSettings(settings);
		if (settings.poolSizes() != null && settings.poolSizes()
			.stream()
			.anyMatch((size) -> GridSettings.poolSize(size) == SweepResults.NO_POOL)) {
			throw new BenchSettingException(
					"bench.poolSizes=%s is not allowed with bench.target=external: the lab resizes the running pools and cannot take them away (none). Use whole numbers from 1 to 1000. Nothing was started."
						.formatted(String.join(",", settings.poolSizes())));
		}
		if (Objects.requireNonNullElse(settings.workload(),
				Preset.named(settings.preset()).workload()) == Workload.WRITE && !settings.database().configured()) {
			throw new BenchSettingException(
					"bench.workload=write with bench.target=external needs bench.database.url: every point starts on an empty role_audit table, which the lab empties through the database. Nothing was started.");
		}
		Optional<Requests> requests = requests(settings);
		return Optional.of(ExternalTarget
			.of(settings.targets(), settings.actuators(), settings.resizeCommand(), settings.resizeTimeout(),
					settings.allowRemoteTargets(), ResizeCredential.from(environment))
			.serving(requests, Optional.ofNullable(settings.poolName())));
	}

	/**
	 * The team's requests, checked; refused beside what only the lab's own requests have:
	 * a workload, and the cross-check's generator, which sends {@code GET /roles}.
	 */
	private static Optional<Requests> requests(BenchProperties settings) {
		if (settings.requests() == null) {
			return Optional.empty();
		}
		if (settings.workload() != null) {
			throw new BenchSettingException(
					"bench.workload=%s is not allowed with bench.requests: the workload is the lab's own request, bench.requests yours; leave bench.workload unset. Nothing was started."
						.formatted(settings.workload().name().toLowerCase(java.util.Locale.ROOT)));
		}
		if (settings.crossCheck()) {
			throw new BenchSettingException(
					"bench.crossCheck=true is not allowed with bench.requests: the independent generator sends the lab's GET /roles only. Nothing was started.");
		}
		return Optional.of(Requests.parse(settings.requests(), Path.of("")));
	}

	/**
	 * Every setting that shapes the deployments the lab starts, refused when it is set.
	 */
	private static void refuseDeploymentSettings(BenchProperties settings) {
		refuseBesideExternal("serve", settings.serve());
		refuseBesideExternal("targetRps", settings.targetRps());
		refuseBesideExternal("topologies", settings.topologies());
		refuseBesideExternal("instances", settings.instances());
		refuseBesideExternal("stack", settings.stack());
		refuseBesideExternal("threads", settings.threads());
		refuseBesideExternal("tomcatThreads", settings.tomcatThreads());
		refuseBesideExternal("instanceCpus", settings.instanceCpus());
		refuseBesideExternal("instanceHeap", settings.instanceHeap());
		refuseBesideExternal("serviceJavaHome", settings.serviceJavaHome());
		refuseBesideExternal("acquireCost", Boolean.TRUE.equals(settings.acquireCost()) ? true : null);
		refuseBesideExternal("holdTime", (settings.holdTime() != null)
				? String.join(",", settings.holdTime().stream().map(HoldSettings::millis).toList()) : null);
		refuseBesideExternal("holdTimeFrom", settings.holdTimeFrom());
		refuseBesideExternal("holdTimeFromWindow", settings.holdTimeFromWindow());
		refuseBesideExternal("holdTimeFromUri", settings.holdTimeFromUri());
		refuseBesideExternal("holdPlace", (settings.holdPlace() != null) ? settings.holdPlace().value() : null);
		refuseBesideExternal("holdCpu", (settings.holdCpu() != null) ? HoldSettings.millis(settings.holdCpu()) : null);
		if (settings.timeScaleSetting().fixedSlowMotion()) {
			throw new BenchSettingException(
					"bench.timeScale=%s is not allowed with bench.target=external: a deployment the lab did not start holds what it holds, so its holds and timeouts cannot be stretched. Use bench.timeScale=1 or auto (which runs it at 1). Nothing was started."
						.formatted(settings.timeScaleSetting().written()));
		}
		if (settings.database().vendor() != null && settings.database().vendor().size() > 1) {
			refuseBesideExternal("database.vendor", settings.database().vendor());
		}
	}

	private static void refuseWithoutExternal(String setting, @Nullable Object value) {
		if (value != null) {
			throw new BenchSettingException(
					"bench.%s is a setting of target mode: add -Dbench.target=external to sweep a deployment the lab did not start, or leave bench.%s unset. Nothing was started."
						.formatted(setting, setting));
		}
	}

	/**
	 * A setting that shapes the deployments the lab starts, refused beside
	 * {@code bench.target=external}, which starts none.
	 */
	private static void refuseBesideExternal(String setting, @Nullable Object value) {
		if (value != null) {
			throw new BenchSettingException(
					"bench.%s=%s is not allowed with bench.target=external: the lab starts no service and no database there, so it cannot shape them; leave bench.%s unset (the deployment is as you deployed it). Nothing was started."
						.formatted(setting, value, setting));
		}
	}

}
