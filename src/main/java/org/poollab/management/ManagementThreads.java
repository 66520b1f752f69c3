package org.poollab.management;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * The actuator's own port keeps Tomcat's platform threads when requests run on virtual
 * threads. Spring Boot puts every Tomcat of the application on virtual threads, the
 * management server's too; under overload thousands of virtual request threads wait on
 * the pool and queue for the few carrier threads (as many as cores), and a scrape of
 * {@code /actuator/prometheus} queued behind them did not come back within the lab's
 * scrape timeout (measured: a window at 1200 rps with no scrape at all). On a platform
 * thread of its own the scrape gets the operating system's share of the CPU like any
 * other thread, so telemetry gets through whatever the request threads do.
 * <p>
 * Only for a management server on a port of its own (a child context), which is how the
 * lab starts every instance.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementThreads {

	/**
	 * Runs after Boot's virtual-threads customizer (order 1) and takes its executor away:
	 * a Tomcat connector without an executor creates its own pool of platform threads.
	 */
	@Bean
	WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> managementPlatformThreads() {
		return new PlatformThreads();
	}

	private static final class PlatformThreads
			implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

		@Override
		public void customize(ConfigurableTomcatWebServerFactory factory) {
			factory.addProtocolHandlerCustomizers((handler) -> handler.setExecutor(null));
		}

		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE;
		}

	}

}
