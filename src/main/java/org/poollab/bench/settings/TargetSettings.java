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
		if (settings.targetMode().target() == Target.LAB) {
			refuseWithoutExternal("targets", settings.targetMode().targets());
			refuseWithoutExternal("actuators", settings.targetMode().actuators());
			refuseWithoutExternal("resizeCommand", settings.targetMode().resizeCommand());
			refuseWithoutExternal("requests", settings.targetMode().requests());
			refuseWithoutExternal("poolName", settings.targetMode().poolName());
			return Optional.empty();
		}
		refuseDeploymentSettings(settings);
		if (settings.axes().poolSizes() != null && settings.axes()
			.poolSizes()
			.stream()
			.anyMatch((size) -> GridSettings.poolSize(size) == SweepResults.NO_POOL)) {
			throw new BenchSettingException(
					"bench.poolSizes=%s is not allowed with bench.target=external: the lab resizes the running pools and cannot take them away (none). Use whole numbers from 1 to 1000. Nothing was started."
						.formatted(String.join(",", settings.axes().poolSizes())));
		}
		if (Objects.requireNonNullElse(settings.load().workload(),
				Preset.named(settings.axes().preset()).workload()) == Workload.WRITE
				&& !settings.database().configured()) {
			throw new BenchSettingException(
					"bench.workload=write with bench.target=external needs bench.database.url: every point starts on an empty role_audit table, which the lab empties through the database. Nothing was started.");
		}
		Optional<Requests> requests = requests(settings);
		return Optional.of(ExternalTarget
			.of(settings.targetMode().targets(), settings.targetMode().actuators(),
					settings.targetMode().resizeCommand(), settings.targetMode().resizeTimeout(),
					settings.targetMode().allowRemoteTargets(), ResizeCredential.from(environment))
			.serving(requests, Optional.ofNullable(settings.targetMode().poolName())));
	}

	/**
	 * The team's requests, checked; refused beside what only the lab's own requests have:
	 * a workload, and the cross-check's generator, which sends {@code GET /roles}.
	 */
	private static Optional<Requests> requests(BenchProperties settings) {
		if (settings.targetMode().requests() == null) {
			return Optional.empty();
		}
		if (settings.load().workload() != null) {
			throw new BenchSettingException(
					"bench.workload=%s is not allowed with bench.requests: the workload is the lab's own request, bench.requests yours; leave bench.workload unset. Nothing was started."
						.formatted(settings.load().workload().name().toLowerCase(java.util.Locale.ROOT)));
		}
		if (settings.load().crossCheck()) {
			throw new BenchSettingException(
					"bench.crossCheck=true is not allowed with bench.requests: the independent generator sends the lab's GET /roles only. Nothing was started.");
		}
		return Optional.of(Requests.parse(settings.targetMode().requests(), Path.of("")));
	}

	/**
	 * Every setting that shapes the deployments the lab starts, refused when it is set.
	 */
	private static void refuseDeploymentSettings(BenchProperties settings) {
		refuseBesideExternal("serve", settings.run().serve());
		refuseBesideExternal("targetRps", settings.slo().targetRps());
		refuseBesideExternal("topologies", settings.axes().topologies());
		refuseBesideExternal("instances", settings.axes().instances());
		refuseBesideExternal("stack", settings.axes().stack());
		refuseBesideExternal("threads", settings.axes().threads());
		refuseBesideExternal("tomcatThreads", settings.axes().tomcatThreads());
		refuseBesideExternal("instanceCpus", settings.deployment().instanceCpus());
		refuseBesideExternal("instanceHeap", settings.deployment().instanceHeap());
		refuseBesideExternal("serviceJavaHome", settings.deployment().serviceJavaHome());
		refuseBesideExternal("acquireCost", Boolean.TRUE.equals(settings.run().acquireCost()) ? true : null);
		refuseBesideExternal("holdTime", (settings.hold().holdTime() != null)
				? String.join(",", settings.hold().holdTime().stream().map(HoldSettings::millis).toList()) : null);
		refuseBesideExternal("holdTimeFrom", settings.hold().holdTimeFrom());
		refuseBesideExternal("holdTimeFromWindow", settings.hold().holdTimeFromWindow());
		refuseBesideExternal("holdTimeFromUri", settings.hold().holdTimeFromUri());
		refuseBesideExternal("holdPlace",
				(settings.hold().holdPlace() != null) ? settings.hold().holdPlace().value() : null);
		refuseBesideExternal("holdCpu",
				(settings.hold().holdCpu() != null) ? HoldSettings.millis(settings.hold().holdCpu()) : null);
		if (settings.load().timeScaleSetting().fixedSlowMotion()) {
			throw new BenchSettingException(
					"bench.timeScale=%s is not allowed with bench.target=external: a deployment the lab did not start holds what it holds, so its holds and timeouts cannot be stretched. Use bench.timeScale=1 or auto (which runs it at 1). Nothing was started."
						.formatted(settings.load().timeScaleSetting().written()));
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
