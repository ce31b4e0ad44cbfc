import NIOCore
import NIOHTTP1

/// A connection has `deadline` to send a whole request (its headers, and a body if it sends one:
/// read and thrown away), counted from its opening or from the
/// end of its previous answer (a keep-alive connection waiting for its next request is closed
/// then too, as Apache's KeepAliveTimeout does); a slowloris that trickles a header line every
/// half second is closed at the deadline however much it sends. It also tells the connection
/// table when a request starts and when its answer is written, which decides who gives way when
/// the slots are full.
///
/// Sits after NIO's HTTP decoder (its `.end` ends a whole request) and before the handler that
/// answers.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let deadline: TimeAmount
    private let table: ConnectionTable
    private var timer: Scheduled<Void>?

    init(deadline: TimeAmount, table: ConnectionTable) {
        self.deadline = deadline
        self.table = table
    }

    func handlerAdded(context: ChannelHandlerContext) {
        arm(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) {
            timer?.cancel()
            timer = nil
            table.requestStarted(on: context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            table.requestAnswered(on: context.channel)
            arm(context)
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }
}
