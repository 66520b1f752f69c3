package org.poollab.service.hold;

import java.sql.SQLException;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;

import org.poollab.vendor.DatabaseVendor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizers;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The JDBC service's transaction manager: {@link HoldTransactionManager} in place of the
 * one Spring Boot would make (it backs off when a transaction manager exists), customized
 * as Boot customizes its own ({@code spring.transaction.*}), so that every
 * {@code @Transactional} request's hold is timed, and padded when {@code lab.hold.*} is
 * set ({@code lab.hold.cpu}: calibrated against the database here, before the first
 * request). A {@code JdbcTransactionManager}, as Boot's is unless
 * {@code spring.dao.exceptiontranslation.enabled=false}, which the service never sets.
 */
@Configuration(proxyBeanMethods = false)
class HoldConfiguration {

	@Bean
	HoldTransactionManager transactionManager(DataSource dataSource, HoldProperties properties, Environment environment,
			MeterRegistry registry, ObjectProvider<TransactionManagerCustomizers> customizers) throws SQLException {
		DatabaseVendor vendor = DatabaseVendor.of(environment);
		HoldTransactionManager manager = new HoldTransactionManager(dataSource, ConnectionHold.register(registry),
				HoldPadding.of(properties, registry).orElse(null), vendor.sleepStatement(),
				(properties.cpu() != null) ? CpuHold.calibrate(dataSource, vendor, properties.cpu()) : null);
		customizers.ifAvailable((customizer) -> customizer.customize(manager));
		return manager;
	}

}
