import NIOCore
import NIOHTTP1
import NIOPosix

/// One connection's requests: each is answered from `StatusEndpoints` once its head has come
/// (bodies are read and thrown away). The reply is made in full before it is written: no lock of
/// Camcast's is held while a byte goes out.
final class StatusHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let endpoints: StatusEndpoints
    private let credentials: @Sendable () -> BasicCredentials?
    private var head: HTTPRequestHead?

    init(endpoints: StatusEndpoints, credentials: @escaping @Sendable () -> BasicCredentials?) {
        self.endpoints = endpoints
        self.credentials = credentials
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            head = nil
            respond(to: request, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        if let credentials = credentials(), !credentials.admits(authorization: request.headers.first(name: "authorization")) {
            var reply = HTTPReply(status: 401, text: "credentials needed\n")
            reply.headers.append(("WWW-Authenticate", "Basic realm=\"camcast\", charset=\"UTF-8\""))
            write(reply, for: request, context: context)
            return
        }
        // Made on the thread pool: a snapshot waits for a picture and encodes it; the event loop
        // keeps serving the other connections meanwhile.
        let endpoints = self.endpoints
        let method = "\(request.method)"
        let path = request.uri
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) {
            endpoints.reply(method: method, path: path)
        }.whenComplete { result in
            let (handler, context) = bound.value
            let reply = (try? result.get()) ?? HTTPReply(status: 503, text: "shutting down\n")
            handler.write(reply, for: request, context: context)
        }
    }

    private func write(_ reply: HTTPReply, for request: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: reply.contentType)
        headers.add(name: "Content-Length", value: "\(reply.body.count)")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        let keepAlive = request.isKeepAlive
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: reply.status)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: reply.body)))), promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
