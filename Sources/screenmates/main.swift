// The entry point: everything else is in the command types.
await ScreenMatesCommand.start()
