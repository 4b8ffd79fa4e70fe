from simkit._entry import entry

entry()
