package org.poollab.management;

import java.util.Objects;

import org.poollab.service.system.PoolResize;
import org.poollab.service.system.ResizeToken;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * When {@code lab.pool-resize.token} is set, every write to the {@code poolsize} endpoint
 * must carry {@code Authorization: Bearer <token>}: without one it is answered 401 with
 * {@code WWW-Authenticate: Bearer realm="poolsize"}, with another token 403, and the pool
 * is not touched. Reads of the endpoint and every other actuator endpoint (health,
 * metrics, prometheus) stay open. {@link PoolResize#guard} decides at start where the
 * endpoint may be served at all; this checks each request.
 * <p>
 * A servlet {@code Filter} (the JDBC service) or a {@code WebFilter} (the reactive twin),
 * declared here for whichever context serves the actuator
 * ({@link ManagementContextType#ANY}): the management server's child context when
 * {@code management.server.port} gives the actuator a port of its own, as the lab's
 * instances and the containers have, else the application's context. Chosen over Spring
 * Security because:
 * <ul>
 * <li>Spring Security's filter chain would sit in front of every {@code /roles} request
 * on the public port, the path the lab measures, and change its answers there (its
 * default response headers, CSRF on {@code POST /roles/{id}/audit}) unless configured
 * away; this filter exists only where the actuator is, and on the public port only when
 * the actuator shares it (on loopback), where a {@code GET} passes on its method
 * alone.</li>
 * <li>It would have to be configured twice, in its servlet and its reactive DSL, and
 * without configuration it secures everything with a generated password that it logs at
 * start, where this lab promises no credential in any log.</li>
 * <li>One shared secret compared in constant time is all the endpoint needs: the check
 * lives in one small class ({@link ResizeToken}) that both filters call and that tests
 * reach directly, with no dependency added.</li>
 * </ul>
 * Outside the services' packages on purpose, like {@link ManagementThreads}: Spring Boot
 * imports it from {@code META-INF/spring/...ManagementContextConfiguration.imports} into
 * the right context; a component scan would put it in the application's context only.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnBooleanProperty(PoolResize.ENABLED_PROPERTY)
@ConditionalOnProperty(ResizeToken.PROPERTY)
class PoolResizeAuthorization {

	private static final EndpointId POOL_SIZE = EndpointId.of("poolsize");

	/**
	 * The token, checked by the guard: the context that declares the filter fails to
	 * start as the endpoint's would, whichever of the two is created first.
	 */
	private static ResizeToken token(Environment environment) {
		return Objects.requireNonNull(PoolResize.guard(environment), ResizeToken.PROPERTY + " is set");
	}

	/**
	 * The endpoint's path below the actuator's base path ({@code poolsize} unless
	 * {@code management.endpoints.web.path-mapping.poolsize} moves it).
	 */
	private static PoolSizeWrites writes(ObjectProvider<PathMappedEndpoints> endpoints) {
		PathMappedEndpoints mapped = endpoints.getIfAvailable();
		String rootPath = (mapped != null) ? mapped.getRootPath(POOL_SIZE) : null;
		return new PoolSizeWrites((rootPath != null) ? rootPath : POOL_SIZE.toString());
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class Servlet {

		/**
		 * Ahead of the dispatcher, after Spring's request observation where there is one.
		 */
		@Bean
		FilterRegistrationBean<BearerTokenFilter> poolResizeTokenFilter(Environment environment,
				ObjectProvider<PathMappedEndpoints> endpoints) {
			FilterRegistrationBean<BearerTokenFilter> registration = new FilterRegistrationBean<>(
					new BearerTokenFilter(token(environment), writes(endpoints)));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class Reactive {

		@Bean
		BearerTokenWebFilter poolResizeTokenWebFilter(Environment environment,
				ObjectProvider<PathMappedEndpoints> endpoints) {
			return new BearerTokenWebFilter(token(environment), writes(endpoints));
		}

	}

}
