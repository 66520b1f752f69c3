package org.poollab.management;

import java.nio.charset.StandardCharsets;

import reactor.core.publisher.Mono;

import org.poollab.service.system.ResizeToken;

import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The reactive twin's (WebFlux) check of the token on writes to the {@code poolsize}
 * endpoint, answering as {@link BearerTokenFilter} does on the JDBC service; reads and
 * every other request pass untouched.
 */
final class BearerTokenWebFilter implements WebFilter, Ordered {

	private final ResizeToken token;

	private final PoolSizeWrites writes;

	BearerTokenWebFilter(ResizeToken token, PoolSizeWrites writes) {
		this.token = token;
		this.writes = writes;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		if (!this.writes.matches(request.getMethod().name(), request.getPath())) {
			return chain.filter(exchange);
		}
		ResizeToken.Check check = this.token.check(request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
		if (check == ResizeToken.Check.ACCEPTED) {
			return chain.filter(exchange);
		}
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatusCode.valueOf(check.status()));
		if (check == ResizeToken.Check.MISSING) {
			response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, ResizeToken.CHALLENGE);
		}
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		// The refusal is written after the request's body has been read to its end, and
		// closes the connection: written before, it left Reactor Netty's keep-alive
		// connection with the refused request's operations still running when the next
		// request came, and that request got no answer at all (a 60 s client timeout
		// in ReactivePoolResizeIT; the race of reactor-netty's "HTTP/1.1 keep-alive can
		// hang when a new request inherits the previous request's ChannelOperations as
		// parent connection", https://github.com/reactor/reactor-netty/issues/4188). A
		// refused write is rare: a new connection for
		// the next request costs nothing that matters.
		response.getHeaders().set(HttpHeaders.CONNECTION, "close");
		DataBuffer body = response.bufferFactory().wrap(check.problem().getBytes(StandardCharsets.UTF_8));
		return request.getBody()
			.doOnNext(DataBufferUtils::release)
			.then(Mono.defer(() -> response.writeWith(Mono.just(body))));
	}

	/** Before anything reads the request's body. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

}
