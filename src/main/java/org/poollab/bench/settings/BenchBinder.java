package org.poollab.bench.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.validation.MessageInterpolatorFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.validation.Validator;
import org.springframework.validation.beanvalidation.LocalValidatorFactoryBean;

import org.poollab.bench.lab.BenchSettingException;
import org.poollab.bench.settings.BenchProperties.Axes;
import org.poollab.bench.settings.BenchProperties.Deciding;
import org.poollab.bench.settings.BenchProperties.Deployment;
import org.poollab.bench.settings.BenchProperties.Engines;
import org.poollab.bench.settings.BenchProperties.Hold;
import org.poollab.bench.settings.BenchProperties.Load;
import org.poollab.bench.settings.BenchProperties.Run;
import org.poollab.bench.settings.BenchProperties.Slo;
import org.poollab.bench.settings.BenchProperties.TargetMode;

/**
 * Binds {@code bench.*} into {@link BenchProperties}: each group from the one
 * {@code bench} prefix, where it takes only the names it has, so that the names users
 * pass stay flat while the Java type is grouped by meaning. Each group is validated as it
 * is bound (the constraints on its components). A name that is no setting is refused
 * first; then every bad value of every group at once, a line each, as
 * {@link BenchSettingRefusals} says it: the setting, the value as written and what is
 * allowed.
 */
public final class BenchBinder {

	/** What every setting's name starts with. */
	public static final String PREFIX = "bench";

	private BenchBinder() {
	}

	/**
	 * The settings in the lab's environment, checked.
	 * @throws BenchSettingException naming each unknown setting (with the closest known
	 * one), or else each bad value and what is allowed
	 */
	public static BenchProperties bind(ConfigurableEnvironment environment) {
		Optional<String> unknown = BenchSettingRefusals.unknownSettings(environment);
		if (unknown.isPresent()) {
			throw new BenchSettingException(unknown.get());
		}
		return bind(Binder.get(environment), environment);
	}

	/**
	 * The settings {@code binder} finds, checked as values; unknown names are not looked
	 * for (a test's or a page's own settings).
	 * @throws BenchSettingException naming each bad value and what is allowed
	 */
	public static BenchProperties bind(Binder binder) {
		return bind(binder, null);
	}

	private static BenchProperties bind(Binder binder, @Nullable Environment environment) {
		try (LocalValidatorFactoryBean validator = new LocalValidatorFactoryBean()) {
			validator.setMessageInterpolator(new MessageInterpolatorFactory().getObject());
			validator.afterPropertiesSet();
			Groups groups = new Groups(binder, validator, environment);
			Optional<Axes> axes = groups.bind(Axes.class);
			Optional<Load> load = groups.bind(Load.class);
			Optional<Engines> engines = groups.bind(Engines.class);
			Optional<Deployment> deployment = groups.bind(Deployment.class);
			Optional<Hold> hold = groups.bind(Hold.class);
			Optional<Slo> slo = groups.bind(Slo.class);
			Optional<TargetMode> targetMode = groups.bind(TargetMode.class);
			Optional<Deciding> deciding = groups.bind(Deciding.class);
			Optional<Run> run = groups.bind(Run.class);
			if (!groups.refusals.isEmpty()) {
				throw new BenchSettingException(String.join(System.lineSeparator(), groups.refusals));
			}
			return new BenchProperties(axes.orElseThrow(), load.orElseThrow(), engines.orElseThrow(),
					deployment.orElseThrow(), hold.orElseThrow(), slo.orElseThrow(), targetMode.orElseThrow(),
					deciding.orElseThrow(), run.orElseThrow());
		}
	}

	/** Binds one group after another, keeping what each refused. */
	private static final class Groups {

		private final Binder binder;

		private final Validator validator;

		private final @Nullable Environment environment;

		private final List<String> refusals = new ArrayList<>();

		Groups(Binder binder, Validator validator, @Nullable Environment environment) {
			this.binder = binder;
			this.validator = validator;
			this.environment = environment;
		}

		/**
		 * The group as bound, or empty when a value of it was refused. A validating
		 * handler of its own: one keeps the first refusal it saw.
		 */
		<T> Optional<T> bind(Class<T> group) {
			try {
				return Optional.of(this.binder.bindOrCreate(PREFIX, Bindable.of(group),
						new ValidationBindHandler(this.validator)));
			}
			catch (BindException ex) {
				this.refusals.add(BenchSettingRefusals.explain(ex, this.environment).orElseThrow(() -> ex));
				return Optional.empty();
			}
		}

	}

}
