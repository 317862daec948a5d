// aasm-vz: one Linux guest under Apple's Virtualization.framework, for aasm's aasm-macos-vm backend.
// The contract with Java (version 1) is CONTRACT.md beside this file; build and signing are in docs/vm.md.
// Written against Apple's documentation and NEVER COMPILED in the project's CI (no macOS there): the Java
// side is tested on Linux against a stand-in that carries out the same contract with QEMU.
import Foundation
import Security
import Virtualization

let contractVersion = 1

enum Exit: Int32 {
    case stopped = 0, usage = 64, unsupported = 69, bootFailed = 70, stoppedWithError = 71, noEntitlement = 77
}

func fail(_ code: Exit, _ message: String) -> Never {
    FileHandle.standardError.write(Data(("aasm-vz: " + message + "\n").utf8))
    exit(code.rawValue)
}

/// The entitlement as the framework will judge it: read from this running process, not from the file.
func hasVirtualizationEntitlement() -> Bool {
    guard let task = SecTaskCreateFromSelf(nil) else { return false }
    let value = SecTaskCopyValueForEntitlement(task, "com.apple.security.virtualization" as CFString, nil)
    return (value as? Bool) == true
}

/// One line of fd 0, read a byte at a time: whatever follows the configuration is the guest's and must stay unread.
func readConfigLine() -> String? {
    var bytes = [UInt8]()
    var b: UInt8 = 0
    while true {
        let n = read(0, &b, 1)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return nil }
        if b == 0x0a { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(b)
        if bytes.count > 65536 { fail(.usage, "a configuration line is longer than 64 KiB") }
    }
}

func split(_ s: String) -> (String, String) {
    guard let i = s.firstIndex(of: " ") else { return (s, "") }
    return (String(s[..<i]), String(s[s.index(after: i)...]))
}

func plainTag(_ t: String) -> Bool {
    let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    return !t.isEmpty && t.utf8.count <= 36 && t.allSatisfy { allowed.contains($0) }
}

struct Share {
    let tag: String
    let readOnly: Bool
    let path: String
}

struct Config {
    var kernel = "", initrd = "", cmdline = ""
    var cpus = 1
    var memoryMiB: UInt64 = 512
    var shares: [Share] = []
}

func readConfig() -> Config {
    guard readConfigLine() == "aasm-vz \(contractVersion)" else {
        fail(.usage, "stdin does not start with \"aasm-vz \(contractVersion)\"")
    }
    var c = Config()
    while let line = readConfigLine() {
        let (key, value) = split(line)
        switch key {
        case "end":
            guard !c.kernel.isEmpty, !c.initrd.isEmpty else { fail(.usage, "kernel and initrd are required") }
            return c
        case "kernel": c.kernel = value
        case "initrd": c.initrd = value
        case "cmdline": c.cmdline = value
        case "cpus":
            guard let n = Int(value), n > 0 else { fail(.usage, "bad cpus: \(value)") }
            c.cpus = n
        case "memory_mib":
            guard let n = UInt64(value), n > 0 else { fail(.usage, "bad memory_mib: \(value)") }
            c.memoryMiB = n
        case "share":
            let (tag, rest) = split(value)
            let (access, path) = split(rest)
            guard access == "ro" || access == "rw", !path.isEmpty else { fail(.usage, "bad share: \(value)") }
            // The guest agent mounts the tag its plan names (protocol 4, R_SHARE) and accepts only these: refuse
            // here what it would refuse there, rather than boot a guest that cannot mount its share.
            guard plainTag(tag) else { fail(.usage, "bad share tag (1-36 of A-Z a-z 0-9 - _): \(tag)") }
            c.shares.append(Share(tag: tag, readOnly: access == "ro", path: path))
        default:
            fail(.usage, "unknown configuration key: \(key)")
        }
    }
    fail(.usage, "the configuration ended before \"end\"")
}

@available(macOS 13, *)
func machineConfiguration(_ c: Config) throws -> VZVirtualMachineConfiguration {
    // On Apple silicon `kernel` is the arm64 image's vmlinux (target/guest-image-arm64, CONTRACT.md "The image it
    // boots on an Apple-silicon Mac"): an uncompressed arm64 Image, the only form VZLinuxBootLoader takes.
    let boot = VZLinuxBootLoader(kernelURL: URL(fileURLWithPath: c.kernel))
    boot.initialRamdiskURL = URL(fileURLWithPath: c.initrd)
    boot.commandLine = c.cmdline
    let vm = VZVirtualMachineConfiguration()
    vm.bootLoader = boot
    vm.cpuCount = c.cpus
    vm.memorySize = c.memoryMiB * 1024 * 1024
    // The control channel: a console port named "ctl", as QEMU's virtserialport, so the guest agent is the same.
    // Its bytes are this process's stdin (to the guest) and stdout (from the guest).
    let port = VZVirtioConsolePortConfiguration()
    port.name = "ctl"
    port.isConsole = false
    port.attachment = VZFileHandleSerialPortAttachment(fileHandleForReading: FileHandle.standardInput,
                                                       fileHandleForWriting: FileHandle.standardOutput)
    let console = VZVirtioConsoleDeviceConfiguration()
    console.ports[0] = port
    vm.consoleDevices = [console]
    // One virtiofs device per share, named by its tag: the plan tells the agent to mount that tag as virtiofs
    // (transport 2). Read-only is enforced here, by the host, not by the guest.
    vm.directorySharingDevices = try c.shares.map { s in
        try VZVirtioFileSystemDeviceConfiguration.validateTag(s.tag)
        let fs = VZVirtioFileSystemDeviceConfiguration(tag: s.tag)
        let dir = VZSharedDirectory(url: URL(fileURLWithPath: s.path, isDirectory: true), readOnly: s.readOnly)
        fs.share = VZSingleDirectoryShare(directory: dir)
        return fs
    }
    vm.entropyDevices = [VZVirtioEntropyDeviceConfiguration()] // each guest seeds its own entropy
    vm.networkDevices = [] // no network device at all
    try vm.validate()
    return vm
}

@available(macOS 13, *)
final class Lifecycle: NSObject, VZVirtualMachineDelegate {
    func guestDidStop(_ virtualMachine: VZVirtualMachine) {
        exit(Exit.stopped.rawValue)
    }

    func virtualMachine(_ virtualMachine: VZVirtualMachine, didStopWithError error: Error) {
        fail(.stoppedWithError, "the VM stopped: \(error)")
    }
}

func checkHost() {
    guard hasVirtualizationEntitlement() else {
        fail(.noEntitlement, "this process is not signed with com.apple.security.virtualization (docs/vm.md)")
    }
    guard VZVirtualMachine.isSupported else { fail(.unsupported, "this Mac cannot run virtual machines") }
}

@available(macOS 13, *)
func run() -> Never {
    let config = readConfig()
    checkHost()
    let vmConfig: VZVirtualMachineConfiguration
    do {
        vmConfig = try machineConfiguration(config)
    } catch {
        fail(.usage, "the framework rejected the configuration: \(error)")
    }
    let machine = VZVirtualMachine(configuration: vmConfig, queue: .main)
    let lifecycle = Lifecycle()
    machine.delegate = lifecycle
    // macOS has no parent-death signal: when the JVM that started this helper ends, so does the VM.
    let parent = DispatchSource.makeProcessSource(identifier: getppid(), eventMask: .exit, queue: .main)
    parent.setEventHandler { exit(Exit.stopped.rawValue) }
    parent.resume()
    if getppid() == 1 { fail(.usage, "orphaned before the VM started") }
    machine.start { result in
        if case .failure(let error) = result { fail(.bootFailed, "the guest did not start: \(error)") }
    }
    withExtendedLifetime((machine, lifecycle, parent)) { dispatchMain() }
}

@available(macOS 13, *)
func perform(_ mode: String?) -> Never {
    switch mode {
    case "check":
        checkHost()
        print("aasm-vz contract \(contractVersion)")
        exit(0)
    case "run":
        run()
    default:
        fail(.usage, "usage: aasm-vz check | aasm-vz run (configuration on stdin; CONTRACT.md)")
    }
}

if #available(macOS 13, *) {
    perform(CommandLine.arguments.dropFirst().first)
} else {
    fail(.unsupported, "macOS 13 or later is required (named console ports)")
}
