package org.poollab.management;

import java.net.URI;
import java.util.concurrent.atomic.AtomicBoolean;

import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;

import org.poollab.service.system.ResizeToken;

import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.http.HttpMethod;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both services' check of the token on writes to the {@code poolsize} endpoint: which
 * requests need it (every write that reaches the endpoint, whatever the path's spelling;
 * no read, and nothing of the public API), the answers without it or with another one,
 * and when the filters exist at all. The JDBC service's servlet filter and the twin's
 * WebFilter get the same requests and must answer alike.
 */
class PoolResizeAuthorizationTests {

	/** Not a secret: this test's token. */
	private static final String TOKEN = "poolsize-test-token-0123456789";

	private static final String RIGHT = "Bearer " + TOKEN;

	private static final String WRONG = "Bearer another-token-0123456789";

	@ParameterizedTest
	@ValueSource(strings = { "/actuator/poolsize", "/actuator/poolsize/", "/actuator/poolsize;jsessionid=1",
			"/actuator/pool%73ize", "//actuator//poolsize", "/management/actuator/poolsize", "/poolsize" })
	void writesToTheEndpointHoweverSpelledNeedTheToken(String path) {
		for (Stack stack : Stack.values()) {
			Answer missing = stack.send("POST", path, null);
			assertThat(missing.status()).as("%s %s", stack, path).isEqualTo(401);
			assertThat(missing.challenge()).isEqualTo("Bearer realm=\"poolsize\"");
			assertThat(missing.contentType()).isEqualTo("application/problem+json");
			assertThat((String) JsonPath.read(missing.body(), "$.detail"))
				.isEqualTo("Changing the pool size needs the header Authorization: Bearer <lab.pool-resize.token>");
			assertThat(missing.passedOn()).as("the endpoint never sees it").isFalse();

			Answer wrong = stack.send("POST", path, WRONG);
			assertThat(wrong.status()).as("%s %s", stack, path).isEqualTo(403);
			assertThat(wrong.challenge()).isNull();
			assertThat((String) JsonPath.read(wrong.body(), "$.detail"))
				.isEqualTo("The bearer token is not lab.pool-resize.token");
			assertThat(wrong.passedOn()).isFalse();
			assertThat(missing.body() + wrong.body()).doesNotContain(TOKEN);

			assertThat(stack.send("POST", path, RIGHT).passedOn()).as("%s %s", stack, path).isTrue();
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "PUT", "PATCH", "DELETE", "OPTIONS" })
	void everyMethodButTheReadsNeedsTheToken(String method) {
		for (Stack stack : Stack.values()) {
			assertThat(stack.send(method, "/actuator/poolsize", null).status()).as("%s %s", stack, method)
				.isEqualTo(401);
		}
	}

	@ParameterizedTest
	@CsvSource(textBlock = """
			GET,  /actuator/poolsize
			HEAD, /actuator/poolsize
			GET,  /actuator/prometheus
			GET,  /actuator/health/readiness
			GET,  /roles
			POST, /roles/3/audit
			POST, /actuator/poolsizes
			POST, /actuator/poolsize/x
			""")
	void readsAndEverythingElsePassWithoutAToken(String method, String path) {
		for (Stack stack : Stack.values()) {
			Answer answer = stack.send(method, path, null);
			assertThat(answer.passedOn()).as("%s %s %s", stack, method, path).isTrue();
			assertThat(answer.status()).isEqualTo(200);
		}
	}

	@Test
	void theServletFilterExistsOnlyWhenTheEndpointIsOnAndATokenSet() {
		WebApplicationContextRunner runner = new WebApplicationContextRunner()
			.withUserConfiguration(PoolResizeAuthorization.class)
			.withPropertyValues("server.address=127.0.0.1");
		runner.withPropertyValues("lab.pool-resize.enabled=true", ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasSingleBean(FilterRegistrationBean.class)
				.doesNotHaveBean(BearerTokenWebFilter.class));
		runner.withPropertyValues("lab.pool-resize.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(FilterRegistrationBean.class));
		runner.withPropertyValues(ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(FilterRegistrationBean.class));
	}

	@Test
	void theWebFilterExistsOnlyWhenTheEndpointIsOnAndATokenSet() {
		ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
			.withUserConfiguration(PoolResizeAuthorization.class)
			.withPropertyValues("server.address=127.0.0.1");
		runner.withPropertyValues("lab.pool-resize.enabled=true", ResizeToken.PROPERTY + "=" + TOKEN)
			.run((context) -> assertThat(context).hasSingleBean(BearerTokenWebFilter.class)
				.doesNotHaveBean(FilterRegistrationBean.class));
		runner.withPropertyValues("lab.pool-resize.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(BearerTokenWebFilter.class));
	}

	@Test
	void aContextDeclaringTheFilterRefusesWhatTheEndpointRefuses() {
		new WebApplicationContextRunner().withUserConfiguration(PoolResizeAuthorization.class)
			.withPropertyValues("lab.pool-resize.enabled=true", ResizeToken.PROPERTY + "=" + TOKEN,
					"server.address=0.0.0.0")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageStartingWith(
						"lab.pool-resize.enabled=true refuses to serve the poolsize endpoint on the public port"));
		new ReactiveWebApplicationContextRunner().withUserConfiguration(PoolResizeAuthorization.class)
			.withPropertyValues("lab.pool-resize.enabled=true", ResizeToken.PROPERTY + "=too-short",
					"server.address=127.0.0.1")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("the one set is shorter than 16 characters"));
	}

	private static ResizeToken token() {
		ResizeToken token = ResizeToken.from(new MockEnvironment().withProperty(ResizeToken.PROPERTY, TOKEN));
		assertThat(token).isNotNull();
		return token;
	}

	/**
	 * @param passedOn whether the request went on to the endpoint (or whatever comes
	 * after the filter)
	 */
	record Answer(int status, @Nullable String challenge, @Nullable String contentType, String body, boolean passedOn) {
	}

	enum Stack {

		SERVLET {
			@Override
			Answer send(String method, String path, @Nullable String authorization) {
				MockHttpServletRequest request = new MockHttpServletRequest(method, path);
				if (authorization != null) {
					request.addHeader("Authorization", authorization);
				}
				MockHttpServletResponse response = new MockHttpServletResponse();
				MockFilterChain chain = new MockFilterChain();
				try {
					new BearerTokenFilter(token(), new PoolSizeWrites("poolsize")).doFilter(request, response, chain);
					return new Answer(response.getStatus(), response.getHeader("WWW-Authenticate"),
							response.getContentType(), response.getContentAsString(), chain.getRequest() != null);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		},

		REACTIVE {
			@Override
			Answer send(String method, String path, @Nullable String authorization) {
				// As it came, still encoded: a URI template would encode it again.
				MockServerHttpRequest.BaseBuilder<?> request = MockServerHttpRequest.method(HttpMethod.valueOf(method),
						URI.create("http://127.0.0.1" + path));
				if (authorization != null) {
					request.header("Authorization", authorization);
				}
				MockServerWebExchange exchange = MockServerWebExchange.from(request);
				AtomicBoolean passedOn = new AtomicBoolean();
				WebFilterChain chain = (passed) -> {
					passedOn.set(true);
					return Mono.empty();
				};
				new BearerTokenWebFilter(token(), new PoolSizeWrites("poolsize")).filter(exchange, chain).block();
				int status = (exchange.getResponse().getStatusCode() != null)
						? exchange.getResponse().getStatusCode().value() : 200;
				String contentType = (exchange.getResponse().getHeaders().getContentType() != null)
						? exchange.getResponse().getHeaders().getContentType().toString() : null;
				String body = passedOn.get() ? "" : exchange.getResponse().getBodyAsString().block();
				return new Answer(status, exchange.getResponse().getHeaders().getFirst("WWW-Authenticate"), contentType,
						body, passedOn.get());
			}
		};

		abstract Answer send(String method, String path, @Nullable String authorization);

	}

}
